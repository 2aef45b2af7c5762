/**
 * `npm run backup`: one backup file of the whole site, taken while it serves (decision 046). The
 * file's path is the last line printed.
 *
 * - PGlite: a running site on DATA_DIR takes it itself (asked over its local channel); with no
 *   site running, this command opens DATA_DIR and takes it.
 * - PostgreSQL (DATABASE_URL): PostgreSQL's own pg_dump dumps the rows (it must be installed).
 */
import { parseArgs } from "node:util";
import { createBackups } from "./backup/backup-service";
import { askSite, siteChannelPath } from "./backup/site-channel";
import { commandConfig, commandMigrations, fail, say } from "./backup/command-line";
import { openDatabase } from "./db/client";
import { DataDirInUseError } from "./db/data-dir-lock";
import { createLogger } from "./logger";

const USAGE = "Usage: npm run backup   (writes into BACKUP_DIR, default DATA_DIR/backups)";


try {
  parseArgs({ options: {}, strict: true });
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`);
}
const config = commandConfig();
const sizeOf = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} kB`);

if (!config.DATABASE_URL) {
  const answer = await askSite(config.DATA_DIR, "backup");
  if (answer) {
    if (!answer.ok) fail(answer.error);
    say(`The running site wrote the backup (${sizeOf(answer.bytes)}):`);
    say(answer.file);
    process.exit(0);
  }
}

const logger = createLogger("warn");
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, pgliteDir: `${config.DATA_DIR}/pglite`, poolSize: 2, retrySeconds: config.DB_RETRY_SECONDS }).catch((error: unknown) => {
  if (error instanceof DataDirInUseError) {
    fail(
      [
        `The site is running on ${config.DATA_DIR} but did not answer on its local channel (${siteChannelPath(config.DATA_DIR)}).`,
        "It may still be starting: wait until it logs that it is listening, then run this again.",
        "A site of an earlier version has no channel: stop it, run this again, then start it.",
      ].join("\n"),
    );
  }
  return Promise.reject(error);
});
try {
  const backups = createBackups({ database, config, migrationsFolder: commandMigrations(), logger });
  const written = await backups.take("manual").catch((error: unknown) => fail((error as Error).message));
  const rows = Object.values(written.manifest.tables).reduce((a, b) => a + b, 0);
  say(`Backup written: ${rows} rows in ${Object.keys(written.manifest.tables).length} tables, ${written.manifest.media.length} images, ${sizeOf(written.bytes)}:`);
  say(written.file);
} finally {
  await database.close();
}
