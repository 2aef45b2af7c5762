/**
 * `npm run media:import [-- --from DIR]`: the one-time move of the disk media (DATA_DIR/media,
 * or DIR) into PostgreSQL once the site runs with DATABASE_URL (decision 024). Prints each file
 * it copies and a summary; running it again copies nothing that is already there. The disk files
 * stay: remove the folder (or unmount the shared volume) once every instance runs this version.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadConfig } from "./config";
import { openDatabase } from "./db/client";
import { runMigrations } from "./db/migrate";
import { importDiskMedia } from "./media/media-import";
import { createMediaObjects } from "./media/media-objects";
import { plural } from "../app/shared/plural";

const USAGE = "Usage: npm run media:import [-- --from /path/to/media]   (needs DATABASE_URL)";

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

let args;
try {
  args = parseArgs({ options: { from: { type: "string" } }, strict: true }).values;
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`);
}
const config = loadConfig({ ...process.env, SEED_DEMO: "false" });
if (!config.DATABASE_URL) fail(`DATABASE_URL is not set: without it the site keeps its media on disk (DATA_DIR/media) and there is nothing to import.\n${USAGE}`);
const mediaDir = path.resolve(args.from ?? path.join(config.DATA_DIR, "media"));

const database = await openDatabase({ databaseUrl: config.DATABASE_URL, retrySeconds: config.DB_RETRY_SECONDS });
try {
  await runMigrations(database, fileURLToPath(new URL("../../drizzle", import.meta.url)));
  process.stdout.write(`Importing media from ${mediaDir} into the database...\n`);
  const report = await importDiskMedia({
    db: database.db,
    objects: createMediaObjects(database.db),
    mediaDir,
    onMoved: (key, bytes) => process.stdout.write(`  moved ${key} (${bytes} bytes)\n`),
  });
  for (const key of report.skipped) process.stdout.write(`  skipped ${key} (not a JPEG, PNG, WebP or SVG image)\n`);
  const total = report.moved.reduce((sum, m) => sum + m.bytes, 0);
  process.stdout.write(`${plural(report.moved.length, "file")} moved (${total} bytes), ${report.unchanged} already in the database, ${report.skipped.length} skipped.\n`);
} finally {
  await database.close();
}
