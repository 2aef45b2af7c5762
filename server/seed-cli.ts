/** `npm run seed`: migrates and (re)loads the demo collection; safe to run again. */
import { fileURLToPath } from "node:url";
import { loadConfig } from "./config";
import { boot } from "./boot";
import { DataDirInUseError } from "./db/data-dir-lock";
import { seedCollection } from "./db/seed/seed-collection";
import { createLogger } from "./logger";

const config = loadConfig({ ...process.env, SEED_DEMO: "false" });
const logger = createLogger(config.LOG_LEVEL);
// On PGlite, while the site runs on the same DATA_DIR, this refuses and says to stop it (decision 043).
const services = await boot({ config, logger, migrationsFolder: fileURLToPath(new URL("../../drizzle", import.meta.url)) }).catch((error: unknown) => {
  if (!(error instanceof DataDirInUseError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
await seedCollection({ db: services.database.db, media: services.images, logger });
await services.database.close();
