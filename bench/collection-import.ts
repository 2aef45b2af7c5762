/**
 * The console's CSV import at a new gallery's scale and more (decision 034):
 * 5,000 exhibit rows (each naming its team, category and two enshrinees) checked (the dry run)
 * and then imported in one transaction, on PGlite and on PostgreSQL (TEST_POSTGRES_URL or the
 * local one, skipped when unreachable), each on a fresh database with the demo collection; then
 * the same file again (5,000 rows unchanged, skipped), and the file with every row's short title
 * revised (5,000 updates). Prints each step's wall time against the 10 s aim.
 * Run: `npx tsx bench/collection-import.ts` (BENCH_ROWS=20000 for a larger file).
 */
import { asc, count } from "drizzle-orm";
import { openDatabase, type DatabaseHandle } from "../server/db/client";
import { runMigrations } from "../server/db/migrate";
import { seedCollection } from "../server/db/seed/seed-collection";
import { categories, enshrinees, exhibits, teams, auditLog } from "../server/db/schema";
import { createCollectionImport } from "../server/catalog/collection-import";
import { csvLine } from "../server/admin/csv";
import { createPostgresDatabase } from "../tests/helpers/databases";

const ROWS = Number(process.env.BENCH_ROWS ?? 5000);
const AIM_MS = 10_000;
const HEADER = ["id", "title", "short_title", "team", "category", "year", "active", "favorite_story", "description", "description_html", "thumbnail", "thumbnail_alt", "matching_photo", "matching_photo_alt", "enshrinees"];

/** The file of new rows; with `ids` (the rows imported before) the same rows, each with its short title revised. */
async function fileFor(handle: DatabaseHandle, ids?: string[]): Promise<Uint8Array> {
  const db = handle.db;
  const [t, c, e] = await Promise.all([
    db.select({ name: teams.name }).from(teams).orderBy(asc(teams.name)),
    db.select({ name: categories.categoryName }).from(categories).orderBy(asc(categories.categoryName)),
    db.select({ name: enshrinees.fullName }).from(enshrinees).orderBy(asc(enshrinees.fullName)),
  ]);
  const lines = [csvLine(HEADER)];
  for (let i = 0; i < ROWS; i++) {
    const people = e.length ? [e[i % e.length].name, e[(i * 7 + 3) % e.length].name] : [];
    lines.push(
      csvLine([
        ids ? ids[i] : crypto.randomUUID(),
        `Gallery piece ${i + 1}: a game-worn jersey`,
        ids ? `Gallery piece ${i + 1}, revised` : `Gallery piece ${i + 1}`,
        t[i % t.length].name,
        c[i % c.length].name,
        1900 + (i % 120),
        i % 10 === 0 ? "no" : "yes",
        "no",
        "",
        `<p>Piece ${i + 1} of the new gallery, <strong>donated</strong> in ${1950 + (i % 70)}.</p><p>${"A longer story of the object. ".repeat(8)}</p>`,
        "",
        "",
        "",
        "",
        [...new Set(people)].join("; "),
      ]),
    );
  }
  return new TextEncoder().encode(lines.join(""));
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await fn();
  return [value, Math.round(performance.now() - started)];
}

async function run(label: string, handle: DatabaseHandle) {
  await runMigrations(handle);
  // The demo teams, categories and enshrinees the file names; its images are not needed here.
  await seedCollection({ db: handle.db, media: { writeOriginal: async () => {} } });
  const importer = createCollectionImport({ db: handle.db, notifyChange: async () => {} });
  const file = await fileFor(handle);
  const actor = { userId: null, email: "bench@museum.example" };
  const [report, checkMs] = await timed(() => importer.check("exhibits", file));
  if (report.errors || report.fileErrors.length) throw new Error(`the bench file has errors: ${JSON.stringify(report.fileErrors.concat(report.rows.filter((r) => r.errors.length).slice(0, 3).map((r) => JSON.stringify(r))))}`);
  const [created, createMs] = await timed(() => importer.run(actor, "exhibits", file));
  // The same file again: every row unchanged, skipped; then every row's short title revised.
  const [unchanged, unchangedMs] = await timed(() => importer.run(actor, "exhibits", file));
  const imported = (await handle.db.select({ id: exhibits.id, title: exhibits.title }).from(exhibits)).filter((x) => x.title.startsWith("Gallery piece "));
  const byNumber = new Map(imported.map((x) => [Number(/^Gallery piece (\d+):/.exec(x.title)?.[1]), x.id]));
  const revised = await fileFor(handle, Array.from({ length: ROWS }, (_, i) => byNumber.get(i + 1)!));
  const [updated, updateMs] = await timed(() => importer.run(actor, "exhibits", revised));
  const [{ n: total }] = await handle.db.select({ n: count() }).from(exhibits);
  const [{ n: audits }] = await handle.db.select({ n: count() }).from(auditLog);
  const mark = (ms: number) => (ms < AIM_MS ? "under" : "OVER");
  console.log(`${label}: ${ROWS} rows (${(file.byteLength / 1024 / 1024).toFixed(1)} MB), ${total} exhibits after, ${audits} audit rows`);
  console.log(`  dry run          ${checkMs} ms`);
  console.log(`  import (create)  ${createMs} ms  ${mark(createMs)} the ${AIM_MS / 1000} s aim  ${created.message}`);
  console.log(`  same file again  ${unchangedMs} ms  ${mark(unchangedMs)} the ${AIM_MS / 1000} s aim  ${unchanged.message}`);
  console.log(`  import (update)  ${updateMs} ms  ${mark(updateMs)} the ${AIM_MS / 1000} s aim  ${updated.message}`);
}

const pglite = await openDatabase({});
try {
  await run("PGlite", pglite);
} finally {
  await pglite.close();
}

let postgres: Awaited<ReturnType<typeof createPostgresDatabase>> | null = null;
try {
  postgres = await createPostgresDatabase();
} catch (error) {
  console.log(`PostgreSQL: skipped (${(error as Error).message})`);
}
if (postgres) {
  const handle = await openDatabase({ databaseUrl: postgres.url, poolSize: 3 });
  try {
    await run("PostgreSQL", handle);
  } finally {
    await handle.close();
    await postgres.drop();
  }
}
