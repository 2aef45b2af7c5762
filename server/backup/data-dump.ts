/**
 * The database part of a backup: a data-only plain SQL script in pg_dump's format. On PostgreSQL
 * `pg_dump --data-only` writes it; on PGlite `writeCopyBlock` writes the same shape (the rows
 * come from PGlite's own COPY ... TO, so each row is PostgreSQL's text format already). One
 * reader replays either into either database: `readDataDump` hands each COPY block's rows to a
 * sink and accepts only what such a dump holds (comments, SET lines, COPY blocks, setval), so a
 * file that carries anything else is refused rather than run.
 */
import type { Readable } from "node:stream";

export interface DumpSink {
  /** A COPY block starts: its table and columns, as named in the dump (checked by the sink). */
  begin(table: string, columns: string[]): Promise<void>;
  /** One row in COPY's text format, without its newline. */
  row(line: Buffer): Promise<void>;
  /** The block's `\.`: the sink loads what it was given. */
  end(): Promise<void>;
  /** `SELECT pg_catalog.setval('seq', value, called)`. */
  setval(sequence: string, value: bigint, called: boolean): Promise<void>;
}

export class DumpFormatError extends Error {
  override name = "DumpFormatError";
}

/** A name as pg_dump writes it: bare when it can be, else double-quoted. */
export function quoteIdentifier(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`;
}

/** The opening lines of a dump the site writes itself (pg_dump writes its own). */
export function dumpHeader(source: string): string {
  return [
    "--",
    `-- Data-only dump of the museum site's tables (${source}).`,
    "-- Replay with psql onto the schema the site's migrations make.",
    "--",
    "",
    "SET client_encoding = 'UTF8';",
    "SET standard_conforming_strings = on;",
    "",
    "",
  ].join("\n");
}

export function copyBlockHeader(table: string, columns: string[]): string {
  return `COPY public.${quoteIdentifier(table)} (${columns.map(quoteIdentifier).join(", ")}) FROM stdin;\n`;
}

export const COPY_END = "\\.\n\n";

/** Splits a byte stream into lines (without "\n"); a last line without "\n" is yielded too. */
async function* lines(stream: Readable): AsyncGenerator<Buffer> {
  let rest: Buffer = Buffer.alloc(0);
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let data = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    let at: number;
    while ((at = data.indexOf(0x0a)) >= 0) {
      yield data.subarray(0, at);
      data = data.subarray(at + 1);
    }
    rest = Buffer.from(data);
  }
  if (rest.length) yield rest;
}

const IDENT = String.raw`(?:[A-Za-z_][A-Za-z0-9_$]*|"(?:[^"]|"")+")`;
const COPY_LINE = new RegExp(String.raw`^COPY (?:public\.)?(${IDENT}) \(((?:${IDENT})(?:, ${IDENT})*)\) FROM stdin;$`);
const SETVAL_LINE = /^SELECT pg_catalog\.setval\('((?:[^']|'')+)', (\d+), (true|false)\);$/;
// SET lines, the search_path pg_dump sets, and psql's \restrict / \unrestrict guard (pg_dump 15.14 and later).
const IGNORED = /^(?:SET [a-z_]+ = .*;|SELECT pg_catalog\.set_config\('search_path', '', false\);|\\(?:un)?restrict [A-Za-z0-9]+)$/;

function unquote(name: string): string {
  return name.startsWith('"') ? name.slice(1, -1).replaceAll('""', '"') : name;
}

/** Replays a data-only dump into `sink`; throws DumpFormatError on anything a data-only dump does not hold, or a block left open. */
export async function readDataDump(stream: Readable, sink: DumpSink): Promise<void> {
  let inCopy = false;
  let lineNo = 0;
  for await (const raw of lines(stream)) {
    lineNo++;
    if (inCopy) {
      if (raw.length === 2 && raw[0] === 0x5c && raw[1] === 0x2e) {
        inCopy = false;
        await sink.end();
      } else await sink.row(raw);
      continue;
    }
    const text = raw.toString("utf8").replace(/\r$/, "");
    if (text === "" || text.startsWith("--") || IGNORED.test(text)) continue;
    const copy = COPY_LINE.exec(text);
    if (copy) {
      const columns = copy[2].match(new RegExp(IDENT, "g")) ?? [];
      await sink.begin(unquote(copy[1]), columns.map(unquote));
      inCopy = true;
      continue;
    }
    const setval = SETVAL_LINE.exec(text);
    if (setval) {
      await sink.setval(setval[1].replaceAll("''", "'"), BigInt(setval[2]), setval[3] === "true");
      continue;
    }
    throw new DumpFormatError(`line ${lineNo} of the database dump is not part of a data-only dump: ${text.slice(0, 80)}`);
  }
  if (inCopy) throw new DumpFormatError("the database dump ends inside a COPY block (the file was cut short)");
}
