/**
 * One consistent moment of the site's data, read while the site serves (decision 046): the rows
 * of every table as a data-only dump, their counts, the last migration, and the media originals.
 *
 * - PGlite has one connection, so one transaction sees everything as of one moment and nothing
 *   else runs meanwhile: every table is copied out with PGlite's own COPY ... TO, and the media
 *   folder's files are hard-linked into a staging folder in the same pause (a link takes no
 *   space and keeps the bytes even if the site deletes or replaces the file a second later).
 *   The pause lasts as long as the COPY; everything slower (compressing, hashing, writing the
 *   archive) happens after it.
 * - PostgreSQL: a REPEATABLE READ transaction exports its snapshot, `pg_dump --snapshot` dumps the
 *   rows as of that snapshot, and the originals are read from media_chunks in the same
 *   transaction, so rows and images belong to the same moment while the site goes on writing.
 */
import { spawn } from "node:child_process";
import { createReadStream, createWriteStream, type Dirent } from "node:fs";
import fs from "node:fs/promises";
import { setPriority } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import pg from "pg";
import { isMediaKey } from "../media/media-storage";
import { migrationJournal } from "../db/migrate";
import { TABLES_LEFT_OUT } from "./backup-format";
import { COPY_END, copyBlockHeader, dumpHeader, quoteIdentifier } from "./data-dump";

export interface MediaItem {
  key: string;
  bytes: number;
}

export interface DatabaseSnapshot {
  source: "pglite" | "postgres";
  dumpedWith: string;
  lastMigration: string;
  migrations: number;
  tables: Record<string, number>;
  /** The gzipped data-only dump, written into the staging folder. */
  dumpFile: string;
  media: MediaItem[];
  /** The original's bytes as of the snapshot. */
  openMedia(key: string): Readable;
  /** The same, whole, for a small original (PGlite: one read). */
  readMedia?(key: string): Promise<Buffer>;
  /** Ends the snapshot (PostgreSQL's transaction); the staging folder is the caller's to remove. */
  close(): Promise<void>;
}

export class BackupError extends Error {
  override name = "BackupError";
}

type Query = <T>(text: string, params?: unknown[]) => Promise<T[]>;

/** The tables of `public` whose rows a backup carries, each after the tables its foreign keys point to. */
async function tablesInLoadOrder(query: Query): Promise<string[]> {
  const rows = await query<{ name: string; deps: string[] | null }>(
    `select c.relname as name,
            (select array_agg(distinct r.relname::text) from pg_constraint k join pg_class r on r.oid = k.confrelid
              where k.conrelid = c.oid and k.contype = 'f' and k.confrelid <> c.oid) as deps
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p')
      order by 1`,
  );
  const left = new Set<string>(TABLES_LEFT_OUT);
  const wanted = new Map(rows.filter((r) => !left.has(r.name)).map((r) => [r.name, (r.deps ?? []).filter((d) => !left.has(d))]));
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (placed.size < wanted.size) {
    const ready = [...wanted].filter(([name, deps]) => !placed.has(name) && deps.every((d) => placed.has(d) || !wanted.has(d)));
    if (ready.length === 0) throw new BackupError(`the tables' foreign keys form a cycle: ${[...wanted.keys()].filter((n) => !placed.has(n)).join(", ")}`);
    for (const [name] of ready) {
      ordered.push(name);
      placed.add(name);
    }
  }
  return ordered;
}

/** The columns COPY can write back (generated columns are computed again on load). */
async function copyColumns(query: Query, table: string): Promise<string[]> {
  const rows = await query<{ name: string }>(
    `select attname::text as name from pg_attribute where attrelid = ('public.' || quote_ident($1))::regclass and attnum > 0 and not attisdropped and attgenerated = '' order by attnum`,
    [table],
  );
  return rows.map((r) => r.name);
}

async function lastMigrationOf(query: Query, migrationsFolder: string): Promise<{ lastMigration: string; migrations: number }> {
  const [row] = await query<{ at: string | number | null; n: number }>(`select max(created_at) as at, count(*)::int as n from drizzle.__drizzle_migrations`);
  const journal = migrationJournal(migrationsFolder);
  const at = row?.at === null || row?.at === undefined ? null : Number(row.at);
  const entry = journal.find((m) => m.when === at);
  if (at === null) throw new BackupError("the database has no migrations recorded: nothing to back up yet");
  if (!entry) throw new BackupError("the database has had migrations this version of the site does not know (it was run by a newer version): back it up with that version");
  return { lastMigration: entry.tag, migrations: journal.indexOf(entry) + 1 };
}

/** Hard-links every original under `mediaDir` into `into` (same relative paths), a few at a time; returns them. */
async function linkMedia(mediaDir: string, into: string): Promise<MediaItem[]> {
  let entries: Dirent[];
  try {
    entries = await fs.readdir(mediaDir, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const files = entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(mediaDir, path.join(e.parentPath, e.name)))
    .filter((relative) => {
      const key = relative.split(path.sep).join("/");
      return !key.endsWith(".tmp") && isMediaKey(key);
    })
    .sort();
  const folders = new Set(files.map((f) => path.dirname(path.join(into, f))));
  for (const folder of folders) await fs.mkdir(folder, { recursive: true });
  const linked: (MediaItem | null)[] = new Array(files.length).fill(null);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < files.length; i = next++) {
      const from = path.join(mediaDir, files[i]);
      const to = path.join(into, files[i]);
      try {
        await fs.link(from, to);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT") continue; // removed by the site a moment ago, before our transaction saw its record
        // Links not allowed here: copy.
        if (code === "EXDEV" || code === "EPERM" || code === "ENOTSUP") await fs.copyFile(from, to);
        else throw error;
      }
      // The size of what was linked (the same bytes whatever happens to the site's file now).
      linked[i] = { key: files[i].split(path.sep).join("/"), bytes: (await fs.stat(to)).size };
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return linked.filter((m): m is MediaItem => m !== null);
}

/** Gzips `chunks` into `file`. */
async function writeGzip(file: string, chunks: Iterable<Buffer | string> | AsyncIterable<Buffer | string>): Promise<void> {
  await pipeline(Readable.from(chunks), createGzip({ level: 6 }), createWriteStream(file, { flags: "wx", mode: 0o600 }));
}

/** PGlite: one transaction copies every table out and links the originals (the site waits meanwhile; see the header). */
export async function snapshotPglite(client: PGlite, o: { mediaDir: string; stagingDir: string; migrationsFolder: string }): Promise<DatabaseSnapshot> {
  const mediaCopy = path.join(o.stagingDir, "media");
  const dumpFile = path.join(o.stagingDir, "database.sql.gz");
  const blocks: (string | Buffer)[] = [dumpHeader("PGlite, written by the site")];
  const tables: Record<string, number> = {};
  let media: MediaItem[] = [];
  let schema: { lastMigration: string; migrations: number } = { lastMigration: "", migrations: 0 };
  await client.transaction(async (tx: Transaction) => {
    const query: Query = async <T>(text: string, params?: unknown[]) => (await tx.query<T>(text, params)).rows;
    schema = await lastMigrationOf(query, o.migrationsFolder);
    for (const table of await tablesInLoadOrder(query)) {
      const columns = await copyColumns(query, table);
      const result = await tx.query(`COPY public.${quoteIdentifier(table)} (${columns.map(quoteIdentifier).join(", ")}) TO '/dev/blob'`);
      const data = result.blob ? Buffer.from(await result.blob.arrayBuffer()) : Buffer.alloc(0);
      let rows = 0;
      for (let at = data.indexOf(0x0a); at >= 0; at = data.indexOf(0x0a, at + 1)) rows++;
      tables[table] = rows;
      blocks.push(copyBlockHeader(table, columns), data, COPY_END);
    }
    for (const s of await query<{ name: string; value: string | null }>(`select quote_ident(sequencename) as name, last_value::text as value from pg_sequences where schemaname = 'public'`)) {
      if (s.value !== null) blocks.push(`SELECT pg_catalog.setval('public.${s.name.replaceAll("'", "''")}', ${s.value}, true);\n`);
    }
    media = await linkMedia(o.mediaDir, mediaCopy);
  });
  await writeGzip(dumpFile, blocks);
  return {
    source: "pglite",
    dumpedWith: "PGlite COPY (pg_dump's data-only format)",
    ...schema,
    tables,
    dumpFile,
    media,
    openMedia: (key) => createReadStream(path.join(mediaCopy, ...key.split("/"))),
    readMedia: (key) => fs.readFile(path.join(mediaCopy, ...key.split("/"))),
    close: async () => undefined,
  };
}

/** The pg_dump to run: PG_DUMP when set, else the one on PATH. */
function pgDumpCommand(): string {
  return process.env.PG_DUMP?.trim() || "pg_dump";
}

export const PG_DUMP_MISSING =
  "pg_dump was not found. With DATABASE_URL, backups use PostgreSQL's own pg_dump: install PostgreSQL's client tools, of the server's major version or newer (Debian and Ubuntu: apt-get install postgresql-client; macOS: brew install libpq), or set PG_DUMP to its path.";

async function pgDumpVersion(): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(pgDumpCommand(), ["--version"], { stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.on("error", (error: NodeJS.ErrnoException) => reject(error.code === "ENOENT" ? new BackupError(PG_DUMP_MISSING) : error));
    child.on("close", (code) => (code === 0 ? resolve(out.trim()) : reject(new BackupError(`${pgDumpCommand()} --version failed (exit ${code})`))));
  });
}

/** PostgreSQL: a REPEATABLE READ transaction whose snapshot pg_dump shares; originals read in it. */
export async function snapshotPostgres(databaseUrl: string, o: { stagingDir: string; migrationsFolder: string }): Promise<DatabaseSnapshot> {
  const dumpedWith = await pgDumpVersion();
  const client = new pg.Client({ connectionString: databaseUrl, application_name: "museum-backup" });
  client.on("error", () => undefined);
  await client.connect();
  const query: Query = async <T>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as T[];
  try {
    await client.query("begin isolation level repeatable read, read only");
    const [{ snapshot }] = await query<{ snapshot: string }>("select pg_export_snapshot() as snapshot");
    const schema = await lastMigrationOf(query, o.migrationsFolder);
    const tables: Record<string, number> = {};
    for (const table of await tablesInLoadOrder(query)) {
      const [{ n }] = await query<{ n: string }>(`select count(*)::text as n from public.${quoteIdentifier(table)}`);
      tables[table] = Number(n);
    }
    const media = (await query<{ key: string; size: number }>("select key, size from media_objects order by key")).map((m) => ({ key: m.key, bytes: m.size }));
    const dumpFile = path.join(o.stagingDir, "database.sql.gz");
    await runPgDump(databaseUrl, snapshot, dumpFile);
    return {
      source: "postgres",
      dumpedWith,
      ...schema,
      tables,
      dumpFile,
      media,
      openMedia: (key) =>
        Readable.from(
          (async function* () {
            const [object] = await query<{ chunks: number }>("select chunks from media_objects where key = $1", [key]);
            for (let seq = 0; seq < (object?.chunks ?? 0); seq++) {
              const [row] = await query<{ data: Buffer }>("select data from media_chunks where key = $1 and seq = $2", [key, seq]);
              if (!row) throw new BackupError(`media ${key} has lost its chunk ${seq}`);
              yield row.data;
            }
          })(),
        ),
      async close() {
        await client.query("rollback").catch(() => undefined);
        await client.end().catch(() => undefined);
      },
    };
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
}

/** `pg_dump --data-only` as of `snapshot`, gzipped into `file`; its own words when it fails. */
async function runPgDump(databaseUrl: string, snapshot: string, file: string): Promise<void> {
  const args = ["--data-only", "--schema=public", "--no-owner", "--no-privileges", `--snapshot=${snapshot}`, ...TABLES_LEFT_OUT.map((t) => `--exclude-table=public.${t}`), `--dbname=${databaseUrl}`];
  const child = spawn(pgDumpCommand(), args, { stdio: ["ignore", "pipe", "pipe"] });
  // Below the site's own work: a backup may take longer, visitors should not wait for it.
  if (child.pid) {
    try {
      setPriority(child.pid, 10);
    } catch {
      // not allowed here: runs at the normal priority
    }
  }
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => {
    if (stderr.length < 4_000) stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on("error", (error: NodeJS.ErrnoException) => reject(error.code === "ENOENT" ? new BackupError(PG_DUMP_MISSING) : error));
    child.on("close", resolve);
  });
  const written = writeGzip(file, child.stdout as AsyncIterable<Buffer>);
  const [code] = await Promise.all([exited, written.catch((error: unknown) => (child.kill(), Promise.reject(error)))]);
  if (code !== 0) throw new BackupError(`pg_dump failed (exit ${code}): ${stderr.trim() || "no message"}`);
}
