/**
 * Liveness and readiness (decision 020).
 *
 * - GET /healthz, liveness: the process is alive and its event loop answers. It touches nothing
 *   else (no database), so a database outage never makes a supervisor restart healthy processes.
 * - GET /readyz, readiness: this process should be sent traffic. 200 `{"status":"ready"}` when
 *   the database answers, the code's last migration (drizzle/meta/_journal.json) is applied and
 *   the process is not draining; otherwise 503 `{"status":"unavailable","reason":...}`, always
 *   within about 1.5 s, so a check is not held by a hung database.
 */
import { sql } from "drizzle-orm";
import type { RequestHandler } from "express";
import journal from "../../drizzle/meta/_journal.json";
import { queryRows, type DatabaseHandle } from "../db/client";
import { hasSqlState } from "../db/errors";
import type { Logger } from "../logger";

export const HEALTH_TIMEOUT_MS = 1_500;

/** The migration this code needs: the journal's last entry (Drizzle records its `when` as created_at). */
export const LATEST_MIGRATION = journal.entries[journal.entries.length - 1];

export const liveness: RequestHandler = (_req, res) => {
  res.setHeader("Cache-Control", "no-store");
  res.json({ status: "ok" });
};

export interface ReadinessOptions {
  database: Pick<DatabaseHandle, "db" | "kind">;
  logger: Logger;
  /** True once the process has been asked to stop (SIGTERM): it drains and must get no new traffic. */
  draining?: () => boolean;
  /** True while a backup holds the embedded database (decision 046): a slow answer then is not an outage. */
  busy?: () => boolean;
  /** The migration that must be applied (tests); defaults to the journal's last one. */
  migration?: { tag: string; when: number };
}

class NotReady extends Error {}

export function readinessCheck({ database, logger, draining = () => false, busy = () => false, migration = LATEST_MIGRATION }: ReadinessOptions): RequestHandler {
  // Migrations are never undone: once seen applied, only the database's answer is checked.
  let migrated = false;
  async function check(): Promise<void> {
    let rows: { created_at: string | number }[];
    try {
      rows = await queryRows(database.db, sql`select max(created_at) as created_at from drizzle.__drizzle_migrations`);
    } catch (error) {
      // 42P01: no migrations table yet.
      if (hasSqlState(error, "42P01")) throw new NotReady(`migration ${migration.tag} is not applied`);
      throw error;
    }
    // A newer instance may have applied later migrations during a rolling deploy: still ready.
    if (!(Number(rows[0]?.created_at ?? 0) >= migration.when)) throw new NotReady(`migration ${migration.tag} is not applied`);
    migrated = true;
  }

  return async (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    if (draining()) return void res.status(503).json({ status: "unavailable", reason: "draining: the process is stopping" });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the database did not answer within ${HEALTH_TIMEOUT_MS} ms`)), HEALTH_TIMEOUT_MS);
    });
    try {
      await Promise.race([migrated ? database.db.execute(sql`select 1`) : check(), timeout]);
      res.json({ status: "ready", database: database.kind });
    } catch (error) {
      // PGlite answers one thing at a time: while a backup copies its tables out, it is busy, not gone.
      if (migrated && !(error instanceof NotReady) && busy()) return void res.json({ status: "ready", database: database.kind, note: "a backup holds the database for a moment" });
      const reason = error instanceof NotReady ? error.message : "database unreachable";
      logger.warn({ err: error, reason }, "not ready");
      res.status(503).json({ status: "unavailable", reason });
    } finally {
      clearTimeout(timer);
    }
  };
}

/**
 * GET /__crash-probe (only with ENABLE_ERROR_PROBE=true, for tests): answers 202, then throws
 * outside any request, as an uncaught error would, so the crash log and the worker's replacement
 * can be observed.
 */
export const crashProbe: RequestHandler = (_req, res) => {
  res.status(202).json({ status: "crashing" });
  res.once("finish", () => {
    setTimeout(() => {
      throw new Error("deliberate crash (ENABLE_ERROR_PROBE)");
    }, 10);
  });
};
