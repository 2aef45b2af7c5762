/** `npm run seed`: migrates and (re)loads the demo collection; safe to run again. */
import { fileURLToPath } from "node:url";
import { loadConfig } from "./config";
import { boot } from "./boot";
import { seedCollection } from "./db/seed/seed-collection";
import { createLogger } from "./logger";

const config = loadConfig({ ...process.env, SEED_DEMO: "false" });
const logger = createLogger(config.LOG_LEVEL);
const services = await boot({ config, logger, migrationsFolder: fileURLToPath(new URL("../../drizzle", import.meta.url)) });
await seedCollection({ db: services.database.db, media: services.images, logger });
await services.database.close();
