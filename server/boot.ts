/**
 * Start-up shared by the production host and the dev server: open the database, migrate,
 * load the demo collection when the database is empty, build the services.
 */
import type { Config } from "./config";
import { openDatabase, pgliteDirectory } from "./db/client";
import type { DatabaseHandle } from "./db/client";
import { lastAppliedMigration, pendingMigrations, runMigrations } from "./db/migrate";
import { createBackups } from "./backup/backup-service";
import { seedCollection } from "./db/seed/seed-collection";
import type { Logger } from "./logger";
import { resolveSecretsKey, resolveSessionSecret } from "./generated-secrets";
import { createServices, type Services } from "./services";

export interface BootOptions {
  config: Config;
  logger: Logger;
  migrationsFolder: string;
}

export async function boot({ config, logger, migrationsFolder }: BootOptions): Promise<Services> {
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    pgliteDir: pgliteDirectory(config.DATA_DIR),
    onConnectionError: (error) => logger.warn({ err: error }, "database connection lost"),
    retrySeconds: config.DB_RETRY_SECONDS,
    onRetry: (what, error, attempt) => logger.warn({ err: error, what, attempt }, "database fault; trying again"),
  });
  logger.info({ database: database.kind }, "database opened");
  await migrateWithBackup({ database, config, logger, migrationsFolder }).catch(async (error: unknown) => {
    await database.close().catch(() => undefined);
    throw error;
  });
  warnAboutStandIns(config, logger);
  const sessionSecret = resolveSessionSecret(config.SESSION_SECRET, config.DATA_DIR);
  const secretsKey = resolveSecretsKey(config.SECRETS_KEY, config.DATA_DIR, config.NODE_ENV === "production" && Boolean(config.DATABASE_URL));
  if (!secretsKey) logger.warn("SECRETS_KEY is not set: staff cannot set up an authenticator app until it is (passkeys and emailed codes work)");
  const services = createServices({ config, database, logger, sessionSecret, secretsKey, migrationsFolder });
  if (config.SEED_DEMO !== false && (await services.catalog.isEmpty())) {
    await seedCollection({ db: database.db, media: services.images, logger });
  }
  return services;
}

/** A migration failed at start: the database is as it was; `message` says what to do. */
export class MigrationFailedError extends Error {
  override name = "MigrationFailedError";
}

/**
 * Applies the pending migrations. On the embedded PGlite (decision 046) a database that has data
 * and migrations to apply is first backed up (an upgrade never migrates without a copy); a backup
 * that fails stops the start with the reason. Drizzle applies the pending migrations in one
 * transaction, so a failing one leaves the database as it was.
 */
async function migrateWithBackup({ database, config, logger, migrationsFolder }: { database: DatabaseHandle; config: Config; logger: Logger; migrationsFolder: string }) {
  let backupFile: string | null = null;
  if (database.kind === "pglite" && (await lastAppliedMigration(database.db)) !== null) {
    const pending = await pendingMigrations(database.db, migrationsFolder);
    if (pending.length > 0) {
      logger.info({ migrations: pending.map((m) => m.tag) }, "migrations to apply: taking a backup first");
      const backups = createBackups({ database, config, migrationsFolder, logger });
      try {
        backupFile = (await backups.take("before-upgrade")).file;
      } catch (error) {
        throw new MigrationFailedError(
          `${(error as Error).message}\nThe site did not migrate the database without a copy, so nothing changed. Fix the cause above (or set BACKUP_DIR to a disk with room) and start again.`,
        );
      }
      logger.info({ file: backupFile }, `backup written before migrating: ${backupFile}`);
    }
  }
  try {
    await runMigrations(database, migrationsFolder);
  } catch (error) {
    const lines = [
      `A database migration failed: ${(error as Error).message}`,
      "The migrations run in one transaction, so the database is as it was before this start.",
      "To go back: install the previous version of the site and start it; it runs on the database unchanged.",
    ];
    if (backupFile) lines.push(`A copy taken just before is in ${backupFile} (npm run restore -- ${backupFile} --replace restores it).`);
    throw new MigrationFailedError(lines.join("\n"));
  }
  logger.info("migrations applied");
}

/** Says at boot, loudly, which built-in stand-ins run instead of the real providers. */
export function warnAboutStandIns(config: Config, logger: Logger): void {
  if (config.PAYMENTS === "test") {
    logger.warn({ PAYMENTS: "test" }, "payments run in TEST MODE: Stripe's test card numbers buy tickets and no card is charged (set STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY for real payments)");
  }
  if (config.MAIL === "log") {
    logger.warn({ MAIL: "log" }, "email is NOT SENT: messages are kept in the outbox and written to the log (set SMTP_URL to send them)");
  }
}
