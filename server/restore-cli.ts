/**
 * `npm run restore -- FILE [--replace]`: a backup into an empty DATA_DIR (PGlite) or, with
 * DATABASE_URL, an empty PostgreSQL database (decision 046). Either database's backup restores
 * into either: this is also the move from the embedded default to PostgreSQL. Stop the site
 * first. Prints what it restored; exits 1 with the reason when it refuses or fails.
 */
import { parseArgs } from "node:util";
import { BadBackupError } from "./backup/backup-archive";
import { restoreIntoPglite, restoreIntoPostgres, TargetInUseError, type RestoreReport } from "./backup/restore";
import { commandConfig, commandMigrations, fail, say } from "./backup/command-line";
import { DataDirInUseError } from "./db/data-dir-lock";

const USAGE = "Usage: npm run restore -- /path/to/museum-backup-....tar [--replace]";


let parsed;
try {
  parsed = parseArgs({ options: { replace: { type: "boolean", default: false } }, allowPositionals: true, strict: true });
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`);
}
if (parsed.positionals.length !== 1) fail(USAGE);
const file = parsed.positionals[0];
const config = commandConfig();
const options = { file, replace: parsed.values.replace, migrationsFolder: commandMigrations(), say };

let report: RestoreReport;
try {
  report = config.DATABASE_URL ? await restoreIntoPostgres({ ...options, databaseUrl: config.DATABASE_URL }) : await restoreIntoPglite({ ...options, dataDir: config.DATA_DIR });
} catch (error) {
  if (error instanceof BadBackupError || error instanceof TargetInUseError) fail(`Not restored. ${error.message}`);
  if (error instanceof DataDirInUseError) fail(`Not restored. ${error.message}`);
  fail(`The restore failed and the target was left empty: ${(error as Error).message}`);
}
const target = config.DATABASE_URL ? `the PostgreSQL database of DATABASE_URL` : `${config.DATA_DIR}`;
say(`Restored into ${target}:`);
say(`  ${report.rows} rows in ${report.tables} tables (every table's count matches the manifest)`);
say(`  ${report.media} images, ${report.mediaBytes} bytes (every SHA-256 matches the manifest)`);
say(`  from ${file}, taken ${report.manifest.createdAt} on ${report.manifest.source.database} by version ${report.manifest.site.version}`);
for (const [table, rows] of Object.entries(report.manifest.tables)) if (rows > 0) say(`    ${table}: ${rows}`);
if (report.keptAside) say(`The database it replaced is kept in ${report.keptAside}: delete it once you are content.`);
say("Start the site with npm start. Members sign in again (sessions are tied to the site's secret).");
