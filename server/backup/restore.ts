/**
 * `npm run restore FILE` (decision 046): a backup into an empty DATA_DIR (PGlite) or an empty
 * PostgreSQL database, whichever database the backup came from.
 *
 * 1. The file is checked through first (checkArchive): a cut, damaged or foreign file, or one
 *    from a newer version of the site, is refused before the target is touched.
 * 2. A target that holds data is refused unless `replace` is given.
 * 3. The schema is made by the site's own migrations up to the backup's last one; the rows load
 *    in one transaction, with the tables' own triggers off (search documents and the like come
 *    from the backup as they were); the originals go to DATA_DIR/media (PGlite) or into
 *    media_objects (PostgreSQL, decision 024); every table's row count and every original's
 *    SHA-256 is compared with the manifest before the transaction commits. Then the migrations
 *    newer than the backup run, as at any start.
 * 4. A failure part way leaves the target empty: PGlite is restored into a staging folder that
 *    replaces DATA_DIR's only at the end (a replaced database is kept aside, not deleted);
 *    PostgreSQL's load transaction rolls back and the schema made for it is dropped.
 */
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Readable, Writable } from "node:stream";
import { finished, pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { openDatabase, type Database } from "../db/client";
import { lockDataDir } from "../db/data-dir-lock";
import { migrationJournal, migrationsUpTo, runMigrations } from "../db/migrate";
import * as schema from "../db/schema";
import { createMediaObjects } from "../media/media-objects";
import { BadBackupError, checkArchive, hashing, readArchive } from "./backup-archive";
import { compareVersions, DATABASE_ENTRY, MANIFEST_ENTRY, MEDIA_PREFIX, siteVersion, TABLES_LEFT_OUT, type Manifest } from "./backup-format";
import { readDataDump, quoteIdentifier, type DumpSink } from "./data-dump";

export interface RestoreOptions {
  file: string;
  /** Restore over a target that holds data (PGlite: the old database is kept aside). */
  replace?: boolean;
  migrationsFolder: string;
  /** Told each step, in words. */
  say?: (line: string) => void;
}

export interface RestoreReport {
  manifest: Manifest;
  rows: number;
  tables: number;
  media: number;
  mediaBytes: number;
  /** PGlite with `replace`: where the database it replaced was moved. */
  keptAside?: string;
}

/** The target holds data and `replace` was not given. */
export class TargetInUseError extends Error {
  override name = "TargetInUseError";
}

/** Refuses a backup this code cannot read: a newer schema or a newer site. */
export function checkCompatible(manifest: Manifest, migrationsFolder: string): void {
  const journal = migrationJournal(migrationsFolder);
  const ours = siteVersion();
  const known = journal.some((m) => m.tag === manifest.schema.lastMigration);
  if (!known || compareVersions(manifest.site.version, ours.version) > 0) {
    throw new BadBackupError(
      `This backup was taken by version ${manifest.site.version} of the site (database migration ${manifest.schema.lastMigration}), newer than this code (version ${ours.version}, last migration ${journal.at(-1)?.tag}). Install version ${manifest.site.version} or later, then restore it.`,
    );
  }
}

/** One COPY of a block's rows into a target: each row (with its newline) written, then ended. */
interface CopyIn {
  write(line: Buffer): Promise<void>;
  end(): Promise<void>;
}

/** What loads the rows and originals into a target, inside its one transaction. */
interface LoadTarget {
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  /** `table` and `columns` are checked and quoted already. */
  copyIn(table: string, columns: string): CopyIn;
  /** Stores an original; the bytes are hashed on the way. */
  putMedia(key: string, stream: Readable): Promise<{ sha256: string; bytes: number }>;
}

/** Columns COPY writes to, per table of `public` (what a dump may name). */
async function knownColumns(target: LoadTarget): Promise<Map<string, Set<string>>> {
  const rows = await target.query<{ table: string; column: string }>(
    `select c.relname::text as table, a.attname::text as column
       from pg_class c join pg_namespace n on n.oid = c.relnamespace join pg_attribute a on a.attrelid = c.oid
      where n.nspname = 'public' and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''`,
  );
  const known = new Map<string, Set<string>>();
  for (const r of rows) {
    if (!known.has(r.table)) known.set(r.table, new Set());
    known.get(r.table)?.add(r.column);
  }
  return known;
}

/** The dump's blocks into `target`, checked against the schema (a name it does not have is refused, never spliced into SQL unchecked). */
function loadingSink(target: LoadTarget, known: Map<string, Set<string>>): DumpSink {
  let copy: CopyIn | null = null;
  return {
    async begin(table, columns) {
      const have = known.get(table);
      const unknown = have ? columns.filter((c) => !have.has(c)) : [table];
      if (!have || unknown.length) throw new BadBackupError(`the backup's rows name ${have ? `columns ${unknown.join(", ")} of ${table}` : `a table ${table}`} that this schema does not have`);
      if ((TABLES_LEFT_OUT as readonly string[]).includes(table)) throw new BadBackupError(`the backup carries rows of ${table}, which backups leave out`);
      copy = target.copyIn(`public.${quoteIdentifier(table)}`, columns.map(quoteIdentifier).join(", "));
    },
    async row(line) {
      await copy?.write(line);
    },
    async end() {
      await copy?.end();
      copy = null;
    },
    async setval(sequence, value, called) {
      await target.query("select pg_catalog.setval($1::regclass, $2::bigint, $3)", [sequence, value.toString(), called]);
    },
  };
}

const NEWLINE = Buffer.from("\n");

/** Writes the stream into `file`, returning its SHA-256 and size. */
async function writeHashed(stream: Readable, file: string): Promise<{ sha256: string; bytes: number }> {
  const digest = hashing();
  await fs.mkdir(path.dirname(file), { recursive: true });
  await pipeline(stream, digest.tap, createWriteStream(file, { flags: "wx", mode: 0o644 }));
  return digest.result();
}

/** Reads the archive a second time into `target` (inside its transaction) and checks it against the manifest. */
async function loadArchive(file: string, manifest: Manifest, target: LoadTarget, say: (line: string) => void): Promise<{ rows: number; mediaBytes: number }> {
  const known = await knownColumns(target);
  const tables = Object.keys(manifest.tables).filter((t) => known.has(t));
  for (const table of tables) await target.query(`ALTER TABLE public.${quoteIdentifier(table)} DISABLE TRIGGER USER`);
  const expected = new Map(manifest.media.map((m) => [m.key, m]));
  let mediaBytes = 0;
  await readArchive(file, async (name, _size, stream) => {
    if (name === DATABASE_ENTRY) {
      say("Loading the rows...");
      const gunzip = createGunzip();
      const loading = readDataDump(gunzip, loadingSink(target, known));
      await Promise.all([pipeline(stream, gunzip), loading]);
    } else if (name.startsWith(MEDIA_PREFIX)) {
      const key = name.slice(MEDIA_PREFIX.length);
      const want = expected.get(key);
      if (!want) throw new BadBackupError(`${name} is not in the manifest`);
      const got = await target.putMedia(key, stream);
      if (got.sha256 !== want.sha256 || got.bytes !== want.bytes) throw new BadBackupError(`${name} changed since the file was checked (its SHA-256 no longer matches)`);
      mediaBytes += got.bytes;
    } else if (name === MANIFEST_ENTRY) stream.resume();
    else throw new BadBackupError(`unexpected entry ${name}`);
  });
  for (const table of tables) await target.query(`ALTER TABLE public.${quoteIdentifier(table)} ENABLE TRIGGER USER`);
  let rows = 0;
  const wrong: string[] = [];
  for (const [table, count] of Object.entries(manifest.tables)) {
    if (!known.has(table)) {
      wrong.push(`${table} (not in the schema)`);
      continue;
    }
    const [{ n }] = await target.query<{ n: string }>(`select count(*)::text as n from public.${quoteIdentifier(table)}`);
    if (Number(n) !== count) wrong.push(`${table} (${n} rows, the manifest says ${count})`);
    rows += Number(n);
  }
  if (wrong.length) throw new BadBackupError(`the restored rows do not match the manifest: ${wrong.join(", ")}`);
  return { rows, mediaBytes };
}

function describe(manifest: Manifest): string {
  return `taken ${manifest.createdAt} on ${manifest.source.database === "pglite" ? "PGlite (the embedded database)" : "PostgreSQL"} by version ${manifest.site.version}, migration ${manifest.schema.lastMigration}`;
}

/** Rows in any of our tables (the target "holds data"). */
async function holdsData(query: <T>(text: string) => Promise<T[]>): Promise<boolean> {
  const tables = await query<{ name: string }>(`select c.relname::text as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind in ('r', 'p')`);
  for (const { name } of tables) {
    if (name === "rate_limits") continue;
    const [row] = await query<{ any: boolean }>(`select exists (select 1 from public.${quoteIdentifier(name)}) as any`);
    if (row?.any) return true;
  }
  return false;
}

// ---- PGlite --------------------------------------------------------------------------------

/** Restores into DATA_DIR (see the header); refuses while the site runs on it. */
export async function restoreIntoPglite(o: RestoreOptions & { dataDir: string }): Promise<RestoreReport> {
  const say = o.say ?? (() => undefined);
  const dataDir = path.resolve(o.dataDir);
  say(`Checking ${o.file}...`);
  const manifest = await checkArchive(o.file);
  checkCompatible(manifest, o.migrationsFolder);
  say(`The file is whole: ${describe(manifest)}.`);
  const livePglite = path.join(dataDir, "pglite");
  const liveMedia = path.join(dataDir, "media");
  // Held until the end: the site cannot start on DATA_DIR meanwhile, nor can a second restore (decision 043).
  const hadDatabaseFolder = await hasFiles(livePglite);
  const lock = await lockDataDir(livePglite);
  const staging = path.join(dataDir, `.restore-${randomBytes(4).toString("hex")}`);
  let restored = false;
  try {
    const used = (await pgliteHoldsData(livePglite)) || (await hasFiles(liveMedia));
    if (used && !o.replace) throw new TargetInUseError(`${dataDir} already holds a database with data. Restore into an empty DATA_DIR, or add --replace to put this backup in its place (the current database and media are kept aside in ${path.join(dataDir, "replaced-<time>")}).`);
    await fs.mkdir(path.join(staging, "media"), { recursive: true });
    const database = await openDatabase({ pgliteDir: path.join(staging, "pglite") });
    let loaded: { rows: number; mediaBytes: number };
    try {
      say("Making the schema...");
      await runMigrations(database, migrationsUpTo(o.migrationsFolder, manifest.schema.lastMigration, path.join(staging, "migrations")));
      const client = database.pglite as PGlite;
      const mediaRoot = path.join(staging, "media");
      await client.exec("begin");
      try {
        loaded = await loadArchive(
          o.file,
          manifest,
          {
            query: async <T>(text: string, params?: unknown[]) => (await client.query<T>(text, params)).rows,
            copyIn: (table, columns) => {
              const rows: Buffer[] = [];
              return {
                write: async (line) => void rows.push(Buffer.from(line), NEWLINE),
                end: async () => void (await client.query(`COPY ${table} (${columns}) FROM '/dev/blob'`, [], { blob: new Blob(rows as Uint8Array<ArrayBuffer>[]) })),
              };
            },
            putMedia: (key, stream) => writeHashed(stream, path.join(mediaRoot, ...key.split("/"))),
          },
          say,
        );
        await client.exec("commit");
      } catch (error) {
        await client.exec("rollback").catch(() => undefined);
        throw error;
      }
      say("Applying this version's newer migrations...");
      await runMigrations(database, o.migrationsFolder);
    } finally {
      await database.close();
    }
    let keptAside: string | undefined;
    if (used) {
      keptAside = path.join(dataDir, `replaced-${new Date().toISOString().replace(/\.\d{3}Z$/, "Z").replaceAll(":", "-")}`);
      await fs.mkdir(keptAside, { recursive: true });
      await moveIfThere(livePglite, path.join(keptAside, "pglite"));
      await moveIfThere(liveMedia, path.join(keptAside, "media"));
    } else {
      await fs.rm(livePglite, { recursive: true, force: true });
      await fs.rm(liveMedia, { recursive: true, force: true });
    }
    // Renditions of the images that were there: made again from the restored originals.
    await fs.rm(path.join(dataDir, "image-cache"), { recursive: true, force: true });
    await fs.rename(path.join(staging, "pglite"), livePglite);
    await fs.rename(path.join(staging, "media"), liveMedia);
    restored = true;
    return { manifest, rows: loaded.rows, tables: Object.keys(manifest.tables).length, media: manifest.media.length, mediaBytes: loaded.mediaBytes, keptAside };
  } finally {
    await fs.rm(staging, { recursive: true, force: true }).catch(() => undefined);
    // The lock made DATA_DIR/pglite; a restore that did not finish leaves no empty folder behind.
    if (!restored && !hadDatabaseFolder) await fs.rmdir(livePglite).catch(() => undefined);
    await lock.release();
  }
}

async function moveIfThere(from: string, to: string): Promise<void> {
  await fs.rename(from, to).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
  });
}

async function hasFiles(dir: string): Promise<boolean> {
  const entries = await fs.readdir(dir, { recursive: true }).catch(() => [] as string[]);
  return entries.length > 0;
}

/** Opens an existing PGlite directory (its lock is held by the caller) and looks for rows. */
async function pgliteHoldsData(dir: string): Promise<boolean> {
  if (!(await hasFiles(dir))) return false;
  const probe = new PGlite(dir, { extensions: { unaccent, pg_trgm } });
  try {
    await probe.waitReady;
    return await holdsData(async <T>(text: string) => (await probe.query<T>(text)).rows);
  } finally {
    await probe.close();
  }
}

// ---- PostgreSQL ----------------------------------------------------------------------------

/** Empties the database of the site's schema: what a failed restore leaves, and what `replace` starts from. */
async function dropSiteSchema(client: pg.Client): Promise<void> {
  await client.query("drop schema if exists drizzle cascade; drop schema if exists public cascade; create schema public");
}

/** Restores into the PostgreSQL database at `databaseUrl` (see the header). Stop the site's instances first. */
export async function restoreIntoPostgres(o: RestoreOptions & { databaseUrl: string }): Promise<RestoreReport> {
  const say = o.say ?? (() => undefined);
  say(`Checking ${o.file}...`);
  const manifest = await checkArchive(o.file);
  checkCompatible(manifest, o.migrationsFolder);
  say(`The file is whole: ${describe(manifest)}.`);
  const client = new pg.Client({ connectionString: o.databaseUrl, application_name: "museum-restore" });
  client.on("error", () => undefined);
  await client.connect();
  const staging = await fs.mkdtemp(path.join(tmpdir(), "museum-restore-"));
  let schemaMade = false;
  try {
    const query = async <T>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as T[];
    if ((await holdsData(query)) && !o.replace) {
      throw new TargetInUseError("The PostgreSQL database of DATABASE_URL already holds data. Restore into an empty database (createdb museum_new), or add --replace to drop what is there and put this backup in its place.");
    }
    say("Making the schema...");
    schemaMade = true;
    await dropSiteSchema(client);
    const schemaDatabase = await openDatabase({ databaseUrl: o.databaseUrl, poolSize: 1 });
    try {
      await runMigrations(schemaDatabase, migrationsUpTo(o.migrationsFolder, manifest.schema.lastMigration, path.join(staging, "migrations")));
    } finally {
      await schemaDatabase.close();
    }
    const pgDb = drizzlePg({ client, schema }) as unknown as Database;
    const objects = createMediaObjects(pgDb);
    await client.query("begin");
    let loaded: { rows: number; mediaBytes: number };
    try {
      loaded = await loadArchive(
        o.file,
        manifest,
        {
          query,
          copyIn: (table, columns) => {
            const sink = client.query(copyFrom(`COPY ${table} (${columns}) FROM STDIN`)) as unknown as Writable;
            const done = finished(sink);
            done.catch(() => undefined);
            return {
              async write(line) {
                sink.write(line);
                if (!sink.write(NEWLINE)) await Promise.race([once(sink, "drain"), done]);
              },
              async end() {
                sink.end();
                await done;
              },
            };
          },
          putMedia: async (key, stream) => {
            const digest = hashing();
            await objects.write(pgDb, key, digest.tap(stream));
            return digest.result();
          },
        },
        say,
      );
      await client.query("commit");
    } catch (error) {
      await client.query("rollback").catch(() => undefined);
      throw error;
    }
    const database = await openDatabase({ databaseUrl: o.databaseUrl, poolSize: 1 });
    try {
      say("Applying this version's newer migrations...");
      await runMigrations(database, o.migrationsFolder);
    } finally {
      await database.close();
    }
    schemaMade = false;
    return { manifest, rows: loaded.rows, tables: Object.keys(manifest.tables).length, media: manifest.media.length, mediaBytes: loaded.mediaBytes };
  } catch (error) {
    // Part way: back to an empty database, never a half-filled one.
    if (schemaMade) await dropSiteSchema(client).catch(() => undefined);
    throw error;
  } finally {
    await fs.rm(staging, { recursive: true, force: true }).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}
