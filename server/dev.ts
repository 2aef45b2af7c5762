/** Development server: the same Express app with Vite's middleware and hot reload (tsx). */
import { fileURLToPath } from "node:url";
import type { ServerBuild } from "react-router";
import { createServer } from "vite";
import { createApp } from "./app";
import { boot } from "./boot";
import { loadConfig } from "./config";
import { createLogger } from "./logger";

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL);
const services = await boot({
  config,
  logger,
  migrationsFolder: fileURLToPath(new URL("../drizzle", import.meta.url)),
});
const vite = await createServer({ server: { middlewareMode: true } });
const app = createApp({
  services,
  build: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
  devMiddleware: vite.middlewares,
});
await services.catalogChanges.start();
services.outbox.start();
services.housekeeping.start();
services.publisher.start();
services.visits.start();
app.listen(config.PORT, () => logger.info(`dev server on http://localhost:${config.PORT}`));
