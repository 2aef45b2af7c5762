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
    onIdleError: (error) => logger.warn({ err: error }, "idle database connection lost"),
  });
  logger.info({ database: database.kind }, "database opened");
  await runMigrations(database, migrationsFolder);
  logger.info("migrations applied");
  const sessionSecret = resolveSessionSecret(config.SESSION_SECRET, config.DATA_DIR);
  const services = createServices({ config, database, logger, sessionSecret });
  if (config.SEED_DEMO !== false && (await services.catalog.isEmpty())) {
    await seedCollection({ db: database.db, media: services.images, logger });
  }
  return services;
}
