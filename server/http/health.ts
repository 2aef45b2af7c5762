/**
 * GET /healthz: `{"status":"ok"}` when the database answers, 503 otherwise, and always within
 * about 1.5 s, so a load balancer's check is not held by a hung database.
 */
import type { RequestHandler } from "express";
import type { DatabaseHandle } from "../db/client";
import type { Logger } from "../logger";

export const HEALTH_TIMEOUT_MS = 1_500;

export function healthCheck(database: Pick<DatabaseHandle, "ping" | "kind">, logger: Logger): RequestHandler {
  return async (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`database did not answer within ${HEALTH_TIMEOUT_MS} ms`)), HEALTH_TIMEOUT_MS);
    });
    try {
      await Promise.race([database.ping(), timeout]);
      res.json({ status: "ok", database: database.kind });
    } catch (error) {
      logger.error({ err: error }, "health check failed");
      res.status(503).json({ status: "unavailable" });
    } finally {
      clearTimeout(timer);
    }
  };
}
