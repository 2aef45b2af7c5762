/**
 * Start-up shared by the production host and the dev server: open the database, migrate,
 * load the demo collection when the database is empty, build the services.
 */
import path from "node:path";
import type { Config } from "./config";
import { openDatabase } from "./db/client";
import { runMigrations } from "./db/migrate";
import { seedCollection } from "./db/seed/seed-collection";
import type { Logger } from "./logger";
import { resolveSessionSecret } from "./session-secret";
import { createServices, type Services } from "./services";

export interface BootOptions {
  config: Config;
  logger: Logger;
  migrationsFolder: string;
}

export async function boot({ config, logger, migrationsFolder }: BootOptions): Promise<Services> {
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    pgliteDir: path.join(config.DATA_DIR, "pglite"),
    onConnectionError: (error) => logger.warn({ err: error }, "database connection lost"),
    retrySeconds: config.DB_RETRY_SECONDS,
    onRetry: (what, error, attempt) => logger.warn({ err: error, what, attempt }, "database fault; trying again"),
  });
  logger.info({ database: database.kind }, "database opened");
  await runMigrations(database, migrationsFolder);
  logger.info("migrations applied");
  warnAboutStandIns(config, logger);
  const sessionSecret = resolveSessionSecret(config.SESSION_SECRET, config.DATA_DIR);
  const services = createServices({ config, database, logger, sessionSecret });
  if (config.SEED_DEMO !== false && (await services.catalog.isEmpty())) {
    await seedCollection({ db: database.db, media: services.images, logger });
  }
  return services;
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
