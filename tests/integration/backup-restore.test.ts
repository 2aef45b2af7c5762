/**
 * Backups and restores (decision 046), on both databases: a backup taken while 20
 * clients write holds every write acknowledged before it began and restores with matching
 * hashes; PGlite -> PostgreSQL -> PGlite gives back the same rows and images; a cut, damaged or
 * newer file is refused with the target untouched; a used target is refused unless replaced; a
 * full disk fails the backup, leaves no partial file and the site serving; an upgrade backs up
 * before migrating and a failing migration leaves the database as it was.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, createWriteStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { pipeline } from "node:stream/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readArchive } from "../../server/backup/backup-archive";
import { createBackups } from "../../server/backup/backup-service";
import { restoreIntoPglite, restoreIntoPostgres, TargetInUseError } from "../../server/backup/restore";
import { boot, MigrationFailedError } from "../../server/boot";
import { loadConfig } from "../../server/config";
import { openDatabase, queryRows, type Database, type DatabaseHandle } from "../../server/db/client";
import { lastAppliedMigration, migrationJournal, migrationsFolder, migrationsUpTo, runMigrations } from "../../server/db/migrate";
import { createLogger } from "../../server/logger";
import { createPhotoTestExhibit, createStaffAccount, jpegWithGps, type StaffAccount } from "../helpers/admin-fixtures";
import { availableDrivers, createPostgresDatabase, isPostgresReachable, type DriverKind } from "../helpers/databases";
import { call, freePort, startInstance } from "../helpers/instances";
import { capturedLogger, startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const temp = (name: string) => mkdtempSync(path.join(tmpdir(), `museum-${name}-`));

/** Each table's rows as one hash (row text in a fixed order), for comparing two databases. */
async function tableHashes(db: Database): Promise<Record<string, string>> {
  const tables = await queryRows<{ name: string }>(db, sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not in ('rate_limits', 'media_objects', 'media_chunks', 'backup_runs') order by 1`);
  const hashes: Record<string, string> = {};
  for (const { name } of tables) {
    // The stored columns (generated ones are computed again by the database that restores them).
    const columns = await queryRows<{ c: string }>(db, sql`select column_name as c from information_schema.columns where table_schema = 'public' and table_name = ${name} and is_generated = 'NEVER' order by ordinal_position`);
    const row_ = `row(${columns.map((c) => `x."${c.c}"`).join(", ")})::text`;
    const [row] = await queryRows<{ h: string }>(db, sql.raw(`select md5(coalesce(string_agg(${row_}, E'\\n' order by ${row_}), '')) as h from public."${name}" x`));
    hashes[name] = row.h;
  }
  return hashes;
}

/** The originals of a database: key -> SHA-256 (PGlite: the files of its media folder; PostgreSQL: media_objects). */
async function mediaHashes(handle: DatabaseHandle, mediaDir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  if (handle.kind === "postgres") {
    for (const r of await queryRows<{ key: string; sha256: string }>(handle.db, sql`select key, sha256 from media_objects`)) out[r.key] = r.sha256;
    return out;
  }
  if (!existsSync(mediaDir)) return out;
  for (const f of readdirSync(mediaDir, { recursive: true }) as string[]) {
    const file = path.join(mediaDir, f);
    try {
      out[f.split(path.sep).join("/")] = sha256(readFileSync(file));
    } catch {
      // a folder
    }
  }
  return out;
}

/** A target of the other kind or the same kind, restored from `file`; returns an open handle and its media folder. */
async function restoreInto(kind: DriverKind, file: string): Promise<{ handle: DatabaseHandle; mediaDir: string; close(): Promise<void> }> {
  const folder = migrationsFolder();
  if (kind === "pglite") {
    const dataDir = temp("restored");
    await restoreIntoPglite({ file, dataDir, migrationsFolder: folder });
    const handle = await openDatabase({ pgliteDir: path.join(dataDir, "pglite") });
    return { handle, mediaDir: path.join(dataDir, "media"), close: async () => (await handle.close(), rmSync(dataDir, { recursive: true, force: true })) };
  }
  const created = await createPostgresDatabase();
  await restoreIntoPostgres({ file, databaseUrl: created.url, migrationsFolder: folder });
  const handle = await openDatabase({ databaseUrl: created.url, poolSize: 2 });
  return { handle, mediaDir: "", close: async () => (await handle.close(), await created.drop()) };
}

/** The manifest of a backup file. */
async function manifestOf(file: string): Promise<{ media: { key: string; sha256: string }[]; tables: Record<string, number> }> {
  let text = "";
  await readArchive(file, async (name, _size, stream) => {
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    if (name.endsWith("manifest.json")) text = Buffer.concat(chunks).toString("utf8");
  });
  return JSON.parse(text);
}

describe.each(drivers)("backups on %s", (kind) => {
  let server: TestServer;
  let curator: StaffAccount;
  let admin: StaffAccount;
  const metricsToken = "backup-metrics-token-0123456789";

  beforeAll(async () => {
    server = await startTestServer(kind, { METRICS_TOKEN: metricsToken }, { seed: true });
    curator = await createStaffAccount(server.services, "curator");
    admin = await createStaffAccount(server.services, "admin");
  }, 180_000);
  afterAll(() => server?.close());

  const post = (p: string, body: unknown, i: number) =>
    fetch(`${server.url}${p}`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": `127.0.9.${i % 250}` }, body: JSON.stringify(body) });

  it("restores every write acknowledged before a backup that 20 writing clients ran through, with the manifest's hashes", async () => {
    const services = server.services;
    const actor = { userId: curator.userId, email: curator.email };
    const teamId = (await services.catalog.listTeams())[0]._id;
    const categoryId = (await services.admin.collection.categories.options())[0].id;
    const editExhibits = await Promise.all([1, 2, 3].map((n) => createPhotoTestExhibit(services, curator, `Backup Edit Exhibit ${n}`, 1970 + n)));
    const photoExhibits = await Promise.all([1, 2, 3].map((n) => createPhotoTestExhibit(services, curator, `Backup Photo Exhibit ${n}`, 1980 + n)));
    const acked: { kind: string; value: string; client: number; n: number }[] = [];
    let stop = false;
    let seq = 0;
    const signUps = async (client: number) => {
      for (let n = 0; !stop; n++) {
        const email = `backup.${kind}.${client}.${n}@example.com`;
        const answer = await post("/api/users", { firstName: "Back", lastName: "Up", emailAddress: email, emailAddressConfirm: email, password: "Steel3rs!", passwordConfirm: "Steel3rs!", termsAndConditions: true }, seq++);
        if (answer.status === 201) acked.push({ kind: "user", value: email, client, n });
        // A person's pace: back to back, eight clients hashing passwords keep both cores busy and the backup waits minutes.
        await sleep(100);
      }
    };
    const messages = async (client: number) => {
      for (let n = 0; !stop; n++) {
        const message = `backup message ${kind} ${client} ${n}`;
        const answer = await post("/api/contact", { firstName: "Back", lastName: "Up", email: `writer${client}@example.com`, subject: "Question", message }, seq++);
        if (answer.status === 201) acked.push({ kind: "message", value: message, client, n });
        await sleep(100);
      }
    };
    const edits = async (client: number) => {
      const id = editExhibits[client % 3];
      for (let n = 0; !stop; n++) {
        const title = `Backup Edit Exhibit ${(client % 3) + 1} rev ${n}`;
        const saved = await services.admin.collection.exhibits.save(actor, id, {
          teamId,
          categoryId,
          title,
          shortTitle: "Backup Edit",
          descriptionHtml: `<p>Revision ${n}.</p>`,
          thumbnail: "",
          thumbnailAlt: "",
          matchingPhoto: null,
          matchingPhotoAlt: null,
          active: false,
          year: 1971,
          favoriteStory: false,
          enshrineeIds: [],
        });
        if (saved.ok) acked.push({ kind: "edit", value: id, client, n });
        // A person's pace (and PGlite answers in microtasks: without a timer this loop would starve the HTTP clients).
        await sleep(200);
      }
    };
    const photos = async (client: number) => {
      const id = photoExhibits[client % 3];
      for (let n = 0; !stop; n++) {
        const key = await services.admin.photos.store(id, await jpegWithGps(`#${((client * 40 + n * 7) % 256).toString(16).padStart(2, "0")}3366`, 40 + n, 30), `p${n}.jpg`);
        const saved = await services.admin.photos.add(actor, id, [key], `Photo ${n}`);
        if (saved.ok) acked.push({ kind: "photo", value: key, client, n });
        await sleep(100);
      }
    };
    // 20 clients: 8 signing up, 6 writing to the museum, 3 staff editing, 3 uploading photos.
    const clients = [...[0, 1, 2, 3, 4, 5, 6, 7].map(signUps), ...[0, 1, 2, 3, 4, 5].map(messages), ...[0, 1, 2].map(edits), ...[0, 1, 2].map(photos)];
    let written: Awaited<ReturnType<typeof services.backups.take>>;
    let before: typeof acked;
    try {
      // Until every kind has been acknowledged at least once (a loaded machine hashes passwords slowly), then a little more.
      const kinds = ["user", "message", "edit", "photo"];
      for (let waited = 0; waited < 120_000 && !kinds.every((k) => acked.some((a) => a.kind === k)); waited += 100) await sleep(100);
      await sleep(1_000);
      before = acked.slice();
      written = await services.backups.take("manual");
      await sleep(300);
    } finally {
      stop = true;
      await Promise.all(clients);
    }
    expect(before.filter((a) => a.kind === "user").length).toBeGreaterThan(0);
    expect(before.filter((a) => a.kind === "photo").length).toBeGreaterThan(0);
    expect(before.filter((a) => a.kind === "edit").length).toBeGreaterThan(0);
    expect(acked.length).toBeGreaterThan(before.length);

    // The console's Overview and /metrics say so.
    const overviewAnswer = await fetch(`${server.url}/admin`, { headers: { cookie: admin.cookie }, redirect: "manual" });
    const overview = await overviewAnswer.text();
    expect(overview).toContain("Last backup:");
    expect(overview).toContain(path.basename(written.file));
    const metrics = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
    const age = Number(/^museum_backup_age_seconds (\S+)$/m.exec(metrics)?.[1]);
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThan(120);

    const restored = await restoreInto(kind, written.file);
    try {
      const db = restored.handle.db;
      const emails = new Set((await queryRows<{ email: string }>(db, sql`select email from users`)).map((r) => r.email));
      const texts = new Set((await queryRows<{ message: string }>(db, sql`select message from contact_messages`)).map((r) => r.message));
      const photoKeys = new Set((await queryRows<{ file: string }>(db, sql`select file from exhibit_photos`)).map((r) => r.file));
      const titles = new Map((await queryRows<{ id: string; title: string }>(db, sql`select id::text, title from exhibits`)).map((r) => [r.id, r.title]));
      const lost = before.filter((a) => {
        if (a.kind === "user") return !emails.has(a.value);
        if (a.kind === "message") return !texts.has(a.value);
        if (a.kind === "photo") return !photoKeys.has(a.value);
        const rev = Number(/rev (\d+)$/.exec(titles.get(a.value) ?? "")?.[1] ?? -1);
        return rev < a.n;
      });
      expect(lost).toEqual([]);
      // Every original the manifest lists is restored with its hash, and every photo row has its original.
      const manifest = await manifestOf(written.file);
      const media = await mediaHashes(restored.handle, restored.mediaDir);
      for (const m of manifest.media) expect(media[m.key], m.key).toBe(m.sha256);
      for (const key of photoKeys) expect(media[key], key).toBeDefined();
      // The restored site's tables hold what the manifest counted.
      for (const [table, count] of Object.entries(manifest.tables)) {
        const [row] = await queryRows<{ n: number }>(db, sql.raw(`select count(*)::int as n from public."${table}"`));
        expect(row.n, table).toBe(count);
      }
    } finally {
      await restored.close();
    }
  }, 240_000);

  // A file's checks do not depend on the database it was taken from: once, from the first
  // database, into an embedded and a PostgreSQL target.
  it.runIf(kind === drivers[0])("refuses a cut, a damaged and a newer-version file, and a used target unless told to replace it, leaving the target untouched", async () => {
    const { file } = await server.services.backups.take("manual");
    const dir = temp("bad-files");
    const bytes = readFileSync(file);
    const cut = path.join(dir, "cut.tar");
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const damaged = path.join(dir, "damaged.tar");
    const flipped = Buffer.from(bytes);
    flipped[512 + 200] ^= 0xff; // inside database.sql.gz, the first entry's data
    writeFileSync(damaged, flipped);
    const newer = path.join(dir, "newer.tar");
    await repackWithManifest(file, newer, (m) => ({ ...m, site: { ...m.site, version: "99.0.0" }, schema: { lastMigration: "0999_from_the_future", migrations: 1000 } }));
    // Whole and matching hashes, but a count no load can meet: refused part way, after loading.
    const miscounted = path.join(dir, "miscounted.tar");
    await repackWithManifest(file, miscounted, (m) => ({ ...m, tables: { ...(m as unknown as { tables: Record<string, number> }).tables, teams: 999 } }));
    const folder = migrationsFolder();
    const cases: [string, RegExp][] = [
      [cut, /incomplete|cut short/],
      [damaged, /does not match its SHA-256|damaged/],
      [newer, /newer than this code/],
      [miscounted, /teams \(\d+ rows, the manifest says 999\)/],
    ];
    try {
      // PGlite: an empty DATA_DIR stays empty; a used one stays as it was, even with --replace.
      const empty = temp("empty-target");
      const used = temp("used-target");
      await restoreIntoPglite({ file, dataDir: used, migrationsFolder: folder });
      const usedHashes = async () => {
        const h = await openDatabase({ pgliteDir: path.join(used, "pglite") });
        try {
          return await tableHashes(h.db);
        } finally {
          await h.close();
        }
      };
      const usedBefore = await usedHashes();
      for (const [bad, message] of cases) {
        await expect(restoreIntoPglite({ file: bad, dataDir: empty, migrationsFolder: folder })).rejects.toThrow(message);
        expect(readdirSync(empty)).toEqual([]);
        await expect(restoreIntoPglite({ file: bad, dataDir: used, migrationsFolder: folder, replace: true })).rejects.toThrow(message);
      }
      await expect(restoreIntoPglite({ file, dataDir: used, migrationsFolder: folder })).rejects.toThrow(TargetInUseError);
      expect(await usedHashes()).toEqual(usedBefore);
      expect(readdirSync(used).sort()).toEqual(["image-cache", "media", "pglite"].filter((d) => existsSync(path.join(used, d))).sort());
      // With --replace, the good file takes its place and the old database is kept aside.
      const replaced = await restoreIntoPglite({ file, dataDir: used, migrationsFolder: folder, replace: true });
      expect(replaced.keptAside && existsSync(path.join(replaced.keptAside, "pglite"))).toBeTruthy();
      rmSync(empty, { recursive: true, force: true });
      rmSync(used, { recursive: true, force: true });

      // PostgreSQL: a used database stays as it was.
      if (await isPostgresReachable()) {
        const target = await createPostgresDatabase();
        try {
          await restoreIntoPostgres({ file, databaseUrl: target.url, migrationsFolder: folder });
          const handle = await openDatabase({ databaseUrl: target.url, poolSize: 1 });
          const pgBefore = await tableHashes(handle.db);
          // Refused before the target is touched (a failure after that, with --replace, leaves it empty: below).
          for (const [bad, message] of cases.filter(([f]) => f !== miscounted)) await expect(restoreIntoPostgres({ file: bad, databaseUrl: target.url, migrationsFolder: folder, replace: true })).rejects.toThrow(message);
          await expect(restoreIntoPostgres({ file, databaseUrl: target.url, migrationsFolder: folder })).rejects.toThrow(TargetInUseError);
          expect(await tableHashes(handle.db)).toEqual(pgBefore);
          await handle.close();
          // Into an empty database, a restore that fails part way leaves it empty.
          const fresh = await createPostgresDatabase();
          try {
            await expect(restoreIntoPostgres({ file: miscounted, databaseUrl: fresh.url, migrationsFolder: folder })).rejects.toThrow(/the manifest says 999/);
            const probe = await openDatabase({ databaseUrl: fresh.url, poolSize: 1 });
            const tables = await queryRows<{ n: number }>(probe.db, sql`select count(*)::int as n from information_schema.tables where table_schema in ('public', 'drizzle')`);
            await probe.close();
            expect(tables[0].n).toBe(0);
          } finally {
            await fresh.drop();
          }
        } finally {
          await target.drop();
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);

  it("fails a backup on a full disk with the reason, leaves no partial file, and the site serving", async (ctx) => {
    if (process.getuid?.() !== 0) {
      if (process.env.CI) throw new Error("the full-disk test mounts a small tmpfs and needs root in CI");
      console.warn("[tests] skipping the full-disk backup: mounting a tmpfs needs root");
      ctx.skip();
    }
    const full = temp("full-disk");
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=192k", "tmpfs", full]);
    try {
      const backups = createBackups({ database: server.services.database, config: { ...server.config, BACKUP_DIR: full }, migrationsFolder: migrationsFolder(), logger: createLogger("silent") });
      await expect(backups.take("manual")).rejects.toThrow(/The backup failed: the disk is full/);
      expect(readdirSync(full).filter((f) => !f.startsWith("lost+found"))).toEqual([]);
      const { last } = await backups.latest();
      expect(last?.status).toBe("failed");
      expect(last?.error).toMatch(/disk is full/);
      // Still serving, reading and writing.
      expect((await fetch(`${server.url}/`)).status).toBe(200);
      expect((await fetch(`${server.url}/about`)).status).toBe(200);
      await server.services.contact.submit({ firstName: "After", lastName: "Full", email: "after.full@example.com", subject: "Question", message: "still here", subscribe: false }, { email: false, subscription: false });
    } finally {
      execFileSync("umount", [full]);
      rmSync(full, { recursive: true, force: true });
    }
  }, 120_000);

  it.runIf(kind === "postgres")("says what to install when pg_dump is missing", async () => {
    const dir = temp("no-pg-dump");
    const saved = process.env.PG_DUMP;
    process.env.PG_DUMP = path.join(dir, "pg_dump-not-installed");
    try {
      const backups = createBackups({ database: server.services.database, config: { ...server.config, BACKUP_DIR: dir }, migrationsFolder: migrationsFolder(), logger: createLogger("silent") });
      await expect(backups.take("manual")).rejects.toThrow(/pg_dump was not found[\s\S]*apt-get install postgresql-client/);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.PG_DUMP;
      else process.env.PG_DUMP = saved;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps the newest good backup and removes scheduled ones older than BACKUP_KEEP days", async () => {
    const dir = temp("prune");
    try {
      const backups = createBackups({ database: server.services.database, config: { ...server.config, BACKUP_DIR: dir, BACKUP_KEEP: 14, BACKUP_HOURS: 24 }, migrationsFolder: migrationsFolder(), logger: createLogger("silent") });
      const old = (day: string, reason = "scheduled") => {
        const f = path.join(dir, `museum-backup-2026-${day}T03-00-00Z-${reason}.tar`);
        writeFileSync(f, "x");
        const t = new Date(`2026-${day}T03:00:00Z`);
        execFileSync("touch", ["-d", t.toISOString(), f]);
        return f;
      };
      const ancient = old("01-01");
      const manualOld = old("01-02", "manual");
      const recent = old("12-31");
      expect(await backups.prune()).toEqual([ancient]);
      expect(existsSync(manualOld) && existsSync(recent)).toBe(true);
      expect(await backups.dueIn()).toBeGreaterThanOrEqual(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Writes `from` again as `to` with its manifest changed by `change` (hashes stay: the manifest is not hashed). */
async function repackWithManifest(from: string, to: string, change: (m: Record<string, never> & { site: { version: string }; schema: object }) => unknown) {
  const pack = tar.pack();
  const done = pipeline(pack, createWriteStream(to));
  await readArchive(from, async (name, _size, stream) => {
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    let data = Buffer.concat(chunks);
    if (name.endsWith("manifest.json")) data = Buffer.from(JSON.stringify(change(JSON.parse(data.toString("utf8")))));
    await new Promise<void>((resolve, reject) => pack.entry({ name, size: data.length }, data, (error) => (error ? reject(error) : resolve())));
  });
  pack.finalize();
  await done;
}

describe.runIf(drivers.includes("pglite"))("moving between the databases", () => {
  it("PGlite -> PostgreSQL -> PGlite gives back the same rows and images", async (ctx) => {
    if (!(await isPostgresReachable())) {
      if (process.env.CI) throw new Error("PostgreSQL required in CI");
      console.warn("[tests] skipping the move: PostgreSQL unreachable");
      ctx.skip();
    }
    const server = await startTestServer("pglite", {}, { seed: true });
    const folder = migrationsFolder();
    const work = temp("move");
    try {
      const curator = await createStaffAccount(server.services, "curator");
      const exhibitId = await createPhotoTestExhibit(server.services, curator, "Moving Exhibit", 1979);
      const key = await server.services.admin.photos.store(exhibitId, await jpegWithGps("#aa3300"), "move.jpg");
      expect((await server.services.admin.photos.add({ userId: curator.userId, email: curator.email }, exhibitId, [key], "Moved")).ok).toBe(true);
      const original = await tableHashes(server.services.database.db);
      const originalMedia = await mediaHashes(server.services.database, path.join(server.config.DATA_DIR, "media"));
      const first = await server.services.backups.take("manual");

      const pgTarget = await createPostgresDatabase();
      try {
        await restoreIntoPostgres({ file: first.file, databaseUrl: pgTarget.url, migrationsFolder: folder });
        const pgHandle = await openDatabase({ databaseUrl: pgTarget.url, poolSize: 2 });
        expect(await tableHashes(pgHandle.db)).toEqual(original);
        expect(await mediaHashes(pgHandle, "")).toEqual(originalMedia);
        const pgBackups = createBackups({ database: pgHandle, config: { DATA_DIR: work, DATABASE_URL: pgTarget.url, BACKUP_DIR: work, BACKUP_HOURS: 0, BACKUP_KEEP: 14 }, migrationsFolder: folder, logger: createLogger("silent") });
        const second = await pgBackups.take("manual");
        await pgHandle.close();

        const back = path.join(work, "back");
        await restoreIntoPglite({ file: second.file, dataDir: back, migrationsFolder: folder });
        const final = await openDatabase({ pgliteDir: path.join(back, "pglite") });
        try {
          expect(await tableHashes(final.db)).toEqual(original);
          expect(await mediaHashes(final, path.join(back, "media"))).toEqual(originalMedia);
        } finally {
          await final.close();
        }
      } finally {
        await pgTarget.drop();
      }
    } finally {
      await server.close();
      rmSync(work, { recursive: true, force: true });
    }
  }, 240_000);
});

describe.runIf(drivers.includes("pglite"))("upgrades on the embedded database", () => {
  const journal = migrationJournal();
  const previous = journal.at(-2)?.tag as string;

  /** A DATA_DIR whose database stopped at the previous migration, holding one account. */
  async function olderSite(): Promise<string> {
    const dataDir = temp("upgrade");
    const older = migrationsUpTo(migrationsFolder(), previous, path.join(dataDir, "older-migrations"));
    const handle = await openDatabase({ pgliteDir: path.join(dataDir, "pglite") });
    await runMigrations(handle, older);
    await handle.db.execute(sql`insert into users (first_name, last_name, email, password_hash, terms_accepted_at) values ('Ada', 'Older', 'ada.older@example.com', 'x', now())`);
    await handle.close();
    return dataDir;
  }
  const configFor = (dataDir: string) => loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, SEED_DEMO: "false", LOG_LEVEL: "silent" });

  it("writes a backup before migrating and names it in the log", async () => {
    const dataDir = await olderSite();
    const { logger, lines } = capturedLogger();
    try {
      const services = await boot({ config: configFor(dataDir), logger, migrationsFolder: migrationsFolder() });
      await services.database.close();
      const files = readdirSync(path.join(dataDir, "backups"));
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/-before-upgrade\.tar$/);
      expect(lines.join("")).toContain(`backup written before migrating: ${path.join(path.resolve(dataDir), "backups", files[0])}`);
      // The backup restores the older database (its own schema, then this version's migrations).
      const manifest = await manifestOf(path.join(dataDir, "backups", files[0]));
      expect(manifest.tables.users).toBe(1);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it("leaves the database as it was when a migration fails, and says what to do", async () => {
    const dataDir = await olderSite();
    const broken = path.join(dataDir, "broken-migrations");
    cpSync(migrationsFolder(), broken, { recursive: true });
    writeFileSync(path.join(broken, "9999_broken.sql"), 'ALTER TABLE "users" ADD COLUMN "upgrade_probe" integer;--> statement-breakpoint\nSELECT 1 / 0;\n');
    const j = JSON.parse(readFileSync(path.join(broken, "meta", "_journal.json"), "utf8"));
    j.entries.push({ idx: j.entries.length, version: "7", when: 4_000_000_000_000, tag: "9999_broken", breakpoints: true });
    writeFileSync(path.join(broken, "meta", "_journal.json"), JSON.stringify(j));
    try {
      const failed = boot({ config: configFor(dataDir), logger: createLogger("silent"), migrationsFolder: broken });
      await expect(failed).rejects.toThrow(MigrationFailedError);
      await expect(failed).rejects.toThrow(/database is as it was before[\s\S]*before-upgrade\.tar/);
      const handle = await openDatabase({ pgliteDir: path.join(dataDir, "pglite") });
      try {
        const columns = await queryRows<{ c: string }>(handle.db, sql`select column_name as c from information_schema.columns where table_name = 'users'`);
        expect(columns.map((c) => c.c)).not.toContain("upgrade_probe");
        expect(await lastAppliedMigration(handle.db)).toBe(journal.find((m) => m.tag === previous)?.when);
        const [{ n }] = await queryRows<{ n: number }>(handle.db, sql`select count(*)::int as n from users`);
        expect(n).toBe(1);
      } finally {
        await handle.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe.runIf(drivers.includes("pglite"))("npm run backup beside the running embedded site", () => {
  it("asks the site, which writes the file while it serves; the last line is its path", async () => {
    const dataDir = temp("running-site");
    const port = await freePort();
    const site = await startInstance("backup-site", port, { DATA_DIR: dataDir, BACKUP_HOURS: "0" });
    try {
      const run = spawnSync(process.execPath, [path.resolve("build/host/backup-cli.js")], { env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir }, encoding: "utf8" });
      expect(run.status, run.stderr).toBe(0);
      const lines = run.stdout.trim().split("\n");
      expect(lines.at(-2)).toMatch(/^The running site wrote the backup \(/);
      const file = lines.at(-1) as string;
      expect(file).toMatch(/museum-backup-.*-manual\.tar$/);
      expect(existsSync(file)).toBe(true);
      expect((await call(port, "/about")).status).toBe(200);
      // The file restores into an empty DATA_DIR.
      const restored = temp("from-running-site");
      const report = await restoreIntoPglite({ file, dataDir: restored, migrationsFolder: migrationsFolder() });
      expect(report.rows).toBeGreaterThan(0);
      rmSync(restored, { recursive: true, force: true });
    } finally {
      site.child.kill("SIGTERM");
      await site.exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
