/**
 * Production entry (compiled to build/host/index.js by `npm run build`): boots the services,
 * serves the built site, and shuts down cleanly on SIGTERM/SIGINT.
 */
import { fileURLToPath } from "node:url";
import type { ServerBuild } from "react-router";
import { createApp } from "./app";
import { boot } from "./boot";
import { ConfigError, loadConfig, type Config } from "./config";
import { createLogger } from "./logger";

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const logger = createLogger(config.LOG_LEVEL);
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

const services = await boot({ config, logger, migrationsFolder: here("../../drizzle") });
const build = (await import(new URL("../server/index.js", import.meta.url).href)) as ServerBuild;
const app = createApp({ services, build, clientDir: here("../client") });
services.outbox.start();
services.housekeeping.start();

const server = app.listen(config.PORT, config.HOST, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.PORT;
  logger.info({ port, url: config.PUBLIC_URL }, `museum site listening on http://localhost:${port}`);
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "shutting down");
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  server.close(async () => {
    await services.outbox.stop();
    await services.housekeeping.stop();
    await services.database.close();
    logger.info("stopped");
    process.exit(0);
  });
  server.closeIdleConnections();
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
