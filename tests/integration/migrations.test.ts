/** Migrations apply on an empty database, are safe to run twice and from two processes at once. */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase, queryRows } from "../../server/db/client";
import { runMigrations } from "../../server/db/migrate";
import { createPostgresDatabase, isPostgresReachable } from "../helpers/databases";

async function tableNames(handle: Awaited<ReturnType<typeof openDatabase>>) {
  const rows = await queryRows<{ table_name: string }>(
    handle.db,
    sql`select table_name from information_schema.tables where table_schema = 'public' order by 1`,
  );
  return rows.map((r) => r.table_name);
}

describe("migrations", () => {
  it("apply twice on PGlite without error", async () => {
    const handle = await openDatabase({});
    await runMigrations(handle);
    await runMigrations(handle);
    expect(await tableNames(handle)).toEqual(expect.arrayContaining(["users", "sessions", "teams", "exhibits"]));
    await handle.close();
  });

  it("apply from two connections at once on PostgreSQL", async (ctx) => {
    if (!(await isPostgresReachable())) {
      if (process.env.CI) throw new Error("PostgreSQL required in CI");
      console.warn("[tests] skipping: PostgreSQL unreachable");
      ctx.skip();
    }
    const created = await createPostgresDatabase();
    const a = await openDatabase({ databaseUrl: created.url, poolSize: 2 });
    const b = await openDatabase({ databaseUrl: created.url, poolSize: 2 });
    try {
      await Promise.all([runMigrations(a), runMigrations(b), runMigrations(a)]);
      expect(await tableNames(b)).toEqual(expect.arrayContaining(["users", "sessions", "teams", "exhibits"]));
      const applied = await queryRows<{ n: number }>(a.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      const files = (await import("node:fs")).readdirSync("drizzle").filter((f) => f.endsWith(".sql"));
      expect(applied[0].n).toBe(files.length);
    } finally {
      await a.close();
      await b.close();
      await created.drop();
    }
  });
});
