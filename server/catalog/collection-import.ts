/**
 * The collection as CSV, both ways (issue 24 point 9, decision 034): the console's export of
 * exhibits and of enshrinees, and their import. The import reads UTF-8 (with or without a byte
 * order mark) with a header row of the export's own columns; teams, categories and an exhibit's
 * enshrinees are named, not numbered. A row with an `id` that exists updates that record, any
 * other row creates one (with that id when given, so an export imports back into an empty
 * database to the same records), except the id of a record in the Trash, which is refused
 * (collection-trash.ts `idsInTrash`).
 *
 * `check` is the dry run: every row's outcome (would create, would update, error) and every
 * error by row number and column name, nothing written. `run` plans the same file again inside
 * one transaction and writes only when no row has an error: all or nothing, with one audit row
 * per record, batched inserts, and one change notification.
 */
import { parse } from "csv-parse/sync";
import { asc, eq, getTableColumns, gt, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { multiLineText, singleLineText } from "../../app/shared/text-fields";
import { slugify } from "../../app/shared/text";
import { categories, enshrineeExhibits, enshrinees, exhibits, teams } from "../db/schema";
import { recordAudits, type Actor, type AuditEntry } from "../audit/audit-trail";
import { plainTextOf, sanitizeRichText } from "./rich-text";
import { PUBLISHED_ALWAYS } from "./publication";
import { idsInTrash } from "./collection-trash";
import { biographyColumns } from "./collection-writes";
import { inChangeTransaction, type ChangeDeps, type Reader } from "./bulk-actions";

export const IMPORT_KINDS = ["exhibits", "enshrinees"] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** The export's columns, in order; the import takes the same header (any order). */
export const EXHIBIT_COLUMNS = [
  "id",
  "title",
  "short_title",
  "team",
  "category",
  "year",
  "active",
  "favorite_story",
  "description",
  "description_html",
  "thumbnail",
  "thumbnail_alt",
  "matching_photo",
  "matching_photo_alt",
  "enshrinees",
  "publish_at",
] as const;
export const ENSHRINEE_COLUMNS = ["id", "full_name", "first_name", "last_name", "biography", "biography_html", "publish_at"] as const;
const COLUMNS: Record<ImportKind, readonly string[]> = { exhibits: EXHIBIT_COLUMNS, enshrinees: ENSHRINEE_COLUMNS };
const REQUIRED: Record<ImportKind, readonly string[]> = { exhibits: ["title", "short_title", "team", "category", "year"], enshrinees: ["full_name", "first_name", "last_name"] };

/** Largest file taken (the route's body limit is a little above it). */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 20_000;
/** Between an exhibit's enshrinees in the `enshrinees` column. */
const NAME_SEPARATOR = ";";

export interface CellError {
  column: string;
  message: string;
}
export interface RowOutcome {
  /** The row as a spreadsheet numbers it: the header is row 1. */
  row: number;
  outcome: "create" | "update" | "error";
  /** The record's title or name, to recognise the row by. */
  label: string;
  errors: CellError[];
}
export interface ImportReport {
  kind: ImportKind;
  /** Problems with the file as a whole (not UTF-8, not CSV, a missing column). */
  fileErrors: string[];
  rows: RowOutcome[];
  creates: number;
  updates: number;
  errors: number;
}
export type ImportResult = { ok: true; report: ImportReport; message: string } | { ok: false; report: ImportReport; message: string };

// ---- reading the file ------------------------------------------------------------------------

/** The export neutralises formulas with a leading apostrophe (server/admin/csv.ts); the import takes it off again. */
const unneutralized = (cell: string) => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);

interface Sheet {
  header: string[];
  records: { row: number; cells: Record<string, string>; width: number }[];
}

function readSheet(kind: ImportKind, bytes: Uint8Array): { sheet: Sheet | null; fileErrors: string[] } {
  if (bytes.byteLength === 0) return { sheet: null, fileErrors: ["The file is empty."] };
  if (bytes.byteLength > IMPORT_MAX_BYTES) return { sheet: null, fileErrors: [`The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB: split it into several imports.`] };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return { sheet: null, fileErrors: ["The file is not UTF-8 text: save it from the spreadsheet as “CSV UTF-8”."] };
  }
  let rows: string[][];
  try {
    rows = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true }) as string[][];
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    return { sheet: null, fileErrors: [`The file is not valid CSV${line ? ` near line ${line}` : ""}: ${(error as Error).message.replace(/^Invalid [^:]*: /, "")}`] };
  }
  if (rows.length === 0) return { sheet: null, fileErrors: ["The file is empty."] };
  const header = rows[0].map((h) => h.trim().toLowerCase());
  const known = COLUMNS[kind];
  const fileErrors: string[] = [];
  const unknown = header.filter((h) => !known.includes(h));
  if (unknown.length) fileErrors.push(`Unknown column${unknown.length === 1 ? "" : "s"}: ${unknown.join(", ")}. The columns are: ${known.join(", ")}.`);
  const missing = REQUIRED[kind].filter((c) => !header.includes(c));
  if (missing.length) fileErrors.push(`Missing column${missing.length === 1 ? "" : "s"}: ${missing.join(", ")}.`);
  const repeated = header.filter((h, i) => header.indexOf(h) !== i);
  if (repeated.length) fileErrors.push(`Column ${repeated[0]} appears twice.`);
  if (rows.length - 1 > IMPORT_MAX_ROWS) fileErrors.push(`The file has ${rows.length - 1} rows; at most ${IMPORT_MAX_ROWS} are imported at once.`);
  if (rows.length === 1) fileErrors.push("The file has a header but no rows.");
  if (fileErrors.length) return { sheet: null, fileErrors };
  const records = rows.slice(1).map((cells, i) => ({
    row: i + 2,
    width: cells.length,
    cells: Object.fromEntries(header.map((h, c) => [h, unneutralized(cells[c] ?? "")])),
  }));
  return { sheet: { header, records }, fileErrors: [] };
}

// ---- checking the rows -----------------------------------------------------------------------

const recordId = z.union([z.literal(""), z.string().uuid("must be a record id from an export, or empty")]);
const yesNo = (fallback: boolean) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .refine((v) => ["", "yes", "no", "true", "false", "1", "0"].includes(v), "must be yes or no")
    .transform((v) => (v === "" ? fallback : v === "yes" || v === "true" || v === "1"));
/**
 * When a record appears (decision 032): empty = published from the start, `draft`, or a date and
 * time (ISO 8601 with its offset, as the export writes it) for a scheduled one.
 */
const publishAt = z
  .string()
  .trim()
  .refine((v) => v === "" || v.toLowerCase() === "draft" || (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v))), "publish_at must be empty (published), draft, or a date and time like 2027-03-01T09:00:00-05:00")
  .transform((v) => (v === "" ? PUBLISHED_ALWAYS : v.toLowerCase() === "draft" ? null : new Date(v)));
/** The export's cell for `publish_at`: the reverse of the import's reading. */
const publishAtCell = (at: Date | null) => (at === null ? "draft" : at.getTime() === PUBLISHED_ALWAYS.getTime() ? "" : at.toISOString());
const mediaFile = (field: string) =>
  singleLineText(field, { max: 300 }).refine((v) => v === "" || (/^[A-Za-z0-9][A-Za-z0-9/_.-]*$/.test(v) && !v.includes("..")), `${field} must be a file of the media folder, like exhibits/name/photo-1.jpg`);

const exhibitRow = z
  .object({
    id: recordId,
    title: singleLineText("Title", { max: 200, required: "Please enter a title" }),
    short_title: singleLineText("Short title", { max: 80, required: "Please enter a short title" }),
    team: singleLineText("Team", { max: 100, required: "Please name the team" }),
    category: singleLineText("Category", { max: 100, required: "Please name the category" }),
    year: z.coerce.number({ message: "Year must be a number" }).int("Year must be a whole number").min(1850, "Year must be at least 1850").max(2100, "Year must be at most 2100"),
    active: yesNo(true),
    favorite_story: yesNo(false),
    description: multiLineText("Description", { max: 50_000 }),
    description_html: multiLineText("Text", { max: 50_000 }),
    thumbnail: mediaFile("Thumbnail"),
    thumbnail_alt: singleLineText("Thumbnail description", { max: 300 }),
    matching_photo: mediaFile("Matching photo"),
    matching_photo_alt: singleLineText("Matching photo description", { max: 300 }),
    enshrinees: singleLineText("Enshrinees", { max: 20_000 }),
    publish_at: publishAt,
  })
  .superRefine((v, ctx) => {
    if (v.thumbnail && !v.thumbnail_alt) ctx.addIssue({ code: "custom", path: ["thumbnail_alt"], message: "Please describe the thumbnail for people who cannot see it" });
    if (v.matching_photo && !v.matching_photo_alt) ctx.addIssue({ code: "custom", path: ["matching_photo_alt"], message: "Please describe the matching photo for people who cannot see it" });
  });

const enshrineeRow = z.object({
  id: recordId,
  full_name: singleLineText("Full name", { max: 200, required: "Please enter the full name" }),
  first_name: singleLineText("First name", { max: 100, required: "Please enter the first name" }),
  last_name: singleLineText("Last name", { max: 100, required: "Please enter the last name" }),
  biography: multiLineText("Biography", { max: 20_000 }),
  biography_html: multiLineText("Biography (formatted)", { max: 40_000 }),
  publish_at: publishAt,
});

const DEFAULTS: Record<string, string> = { description: "", description_html: "", thumbnail: "", thumbnail_alt: "", matching_photo: "", matching_photo_alt: "", enshrinees: "", active: "", favorite_story: "", biography: "", biography_html: "", publish_at: "", id: "" };

/** Parses one row; the errors by column (an `id` column's message reads "id must be ..."). */
function checkRow<S extends z.ZodType>(schema: S, record: Sheet["records"][number], width: number): { value: z.infer<S> | null; errors: CellError[] } {
  const errors: CellError[] = [];
  if (record.width > width) errors.push({ column: "(row)", message: `This row has ${record.width} cells; the header has ${width} columns.` });
  const parsed = schema.safeParse({ ...DEFAULTS, ...record.cells });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const column = String(issue.path[0] ?? "(row)");
      if (!errors.some((e) => e.column === column)) errors.push({ column, message: column === "id" ? `id ${issue.message}` : issue.message });
    }
  }
  return { value: errors.length ? null : (parsed.data as z.infer<S>), errors };
}

/** Name → id, case and spacing ignored; a name two records share is ambiguous. */
function byName(rows: { id: string; name: string }[]) {
  const map = new Map<string, string[]>();
  for (const r of rows) {
    const key = r.name.trim().toLowerCase().replace(/\s+/g, " ");
    map.set(key, [...(map.get(key) ?? []), r.id]);
  }
  return (name: string) => map.get(name.trim().toLowerCase().replace(/\s+/g, " ")) ?? [];
}

function lookup(find: (name: string) => string[], name: string, what: string, column: string, errors: CellError[]): string | null {
  const ids = find(name);
  if (ids.length === 1) return ids[0];
  errors.push({ column, message: ids.length === 0 ? `No ${what} is named “${name}”.` : `${ids.length} ${what}s are named “${name}”: rename one first.` });
  return null;
}

/** A slug for each planned record, never one another record holds or another row took. */
function slugger(existing: { id: string; slug: string }[]) {
  const taken = new Set(existing.map((e) => e.slug));
  const own = new Map(existing.map((e) => [e.id, e.slug]));
  return (text: string, id: string) => {
    const base = slugify(text);
    for (let i = 1; i < 10_000; i++) {
      const slug = i === 1 ? base : `${base}-${i}`;
      if (own.get(id) === slug || !taken.has(slug)) {
        taken.add(slug);
        return slug;
      }
    }
    return `${base}-${crypto.randomUUID().slice(0, 8)}`;
  };
}

async function inChunks<T>(items: readonly T[], size: number, fn: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += size) await fn(items.slice(i, i + size));
}

type ExhibitValues = typeof exhibits.$inferInsert & { id: string; slug: string };
type EnshrineeValues = typeof enshrinees.$inferInsert & { id: string; slug: string };
interface Plan<Values> {
  report: ImportReport;
  writes: { values: Values; before: Record<string, unknown> | null; enshrineeIds?: string[] }[];
}

function emptyReport(kind: ImportKind, fileErrors: string[]): ImportReport {
  return { kind, fileErrors, rows: [], creates: 0, updates: 0, errors: 0 };
}

function tally(report: ImportReport): ImportReport {
  report.creates = report.rows.filter((r) => r.outcome === "create").length;
  report.updates = report.rows.filter((r) => r.outcome === "update").length;
  report.errors = report.rows.filter((r) => r.outcome === "error").length;
  return report;
}

/** A row whose id belongs to a record in the Trash (collection-trash.ts `idsInTrash` says why it is refused). */
function inTrash(noun: "exhibit" | "enshrinee", label: string): CellError {
  return { column: "id", message: `An ${noun} with this id is in the Trash (${label}): restore it from the Trash, or leave the id empty to import this row as a new ${noun}.` };
}

/** Ids taken twice in the file: the later rows are errors. */
function repeatedIds(sheet: Sheet): Map<number, number> {
  const first = new Map<string, number>();
  const repeats = new Map<number, number>();
  for (const r of sheet.records) {
    const id = r.cells.id?.trim().toLowerCase();
    if (!id) continue;
    const at = first.get(id);
    if (at === undefined) first.set(id, r.row);
    else repeats.set(r.row, at);
  }
  return repeats;
}

async function existingById<T extends typeof exhibits | typeof enshrinees>(db: Reader, table: T, ids: string[]) {
  const rows: T["$inferSelect"][] = [];
  await inChunks(ids, 1000, async (chunk) => rows.push(...((await db.select().from(table as typeof exhibits).where(inArray(table.id, chunk))) as T["$inferSelect"][])));
  return new Map(rows.map((r) => [r.id, r]));
}

async function planExhibits(db: Reader, sheet: Sheet): Promise<Plan<ExhibitValues>> {
  const report = emptyReport("exhibits", []);
  const [teamRows, categoryRows, enshrineeRows, slugs] = await Promise.all([
    db.select({ id: teams.id, name: teams.name }).from(teams),
    db.select({ id: categories.id, name: categories.categoryName }).from(categories),
    db.select({ id: enshrinees.id, name: enshrinees.fullName }).from(enshrinees),
    db.select({ id: exhibits.id, slug: exhibits.slug }).from(exhibits),
  ]);
  const team = byName(teamRows);
  const category = byName(categoryRows);
  const enshrinee = byName(enshrineeRows);
  const slugFor = slugger(slugs);
  const ids = sheet.records.map((r) => r.cells.id?.trim().toLowerCase() ?? "").filter((id) => z.string().uuid().safeParse(id).success);
  const existing = await existingById(db, exhibits, ids);
  const trashed = await idsInTrash(db, "exhibit", ids);
  const links = new Map<string, string[]>();
  await inChunks([...existing.keys()], 1000, async (chunk) => {
    for (const l of await db.select().from(enshrineeExhibits).where(inArray(enshrineeExhibits.exhibitId, chunk))) links.set(l.exhibitId, [...(links.get(l.exhibitId) ?? []), l.enshrineeId]);
  });
  const repeats = repeatedIds(sheet);
  const writes: Plan<ExhibitValues>["writes"] = [];
  for (const record of sheet.records) {
    const { value, errors } = checkRow(exhibitRow, record, sheet.header.length);
    const label = record.cells.title?.trim() || `Row ${record.row}`;
    if (repeats.has(record.row)) errors.push({ column: "id", message: `The same id is on row ${repeats.get(record.row)}.` });
    if (!value) {
      report.rows.push({ row: record.row, outcome: "error", label, errors });
      continue;
    }
    const teamId = lookup(team, value.team, "team", "team", errors);
    const categoryId = lookup(category, value.category, "category", "category", errors);
    const names = value.enshrinees
      .split(NAME_SEPARATOR)
      .map((n) => n.trim())
      .filter(Boolean);
    const enshrineeIds = [...new Set(names.map((n) => lookup(enshrinee, n, "enshrinee", "enshrinees", errors)).filter((id): id is string => id !== null))].sort();
    if (errors.length || !teamId || !categoryId) {
      report.rows.push({ row: record.row, outcome: "error", label, errors });
      continue;
    }
    const id = value.id.toLowerCase() || crypto.randomUUID();
    const before = existing.get(id) ?? null;
    if (!before && trashed.has(id)) {
      report.rows.push({ row: record.row, outcome: "error", label, errors: [inTrash("exhibit", trashed.get(id)!)] });
      continue;
    }
    const html = value.description_html ? sanitizeRichText(value.description_html) : null;
    writes.push({
      values: {
        id,
        slug: slugFor(value.title, id),
        teamId,
        categoryId,
        title: value.title,
        shortTitle: value.short_title,
        description: html === null ? value.description : plainTextOf(html),
        descriptionHtml: html,
        thumbnail: value.thumbnail,
        thumbnailAlt: value.thumbnail_alt,
        matchingPhoto: value.matching_photo || null,
        matchingPhotoAlt: value.matching_photo_alt || null,
        active: value.active,
        year: value.year,
        favoriteStory: value.favorite_story,
        publishAt: value.publish_at,
      },
      before: before ? { ...before, enshrineeIds: (links.get(id) ?? []).sort() } : null,
      enshrineeIds,
    });
    report.rows.push({ row: record.row, outcome: before ? "update" : "create", label, errors: [] });
  }
  return { report: tally(report), writes };
}

async function planEnshrinees(db: Reader, sheet: Sheet): Promise<Plan<EnshrineeValues>> {
  const report = emptyReport("enshrinees", []);
  const slugFor = slugger(await db.select({ id: enshrinees.id, slug: enshrinees.slug }).from(enshrinees));
  const ids = sheet.records.map((r) => r.cells.id?.trim().toLowerCase() ?? "").filter((id) => z.string().uuid().safeParse(id).success);
  const existing = await existingById(db, enshrinees, ids);
  const trashed = await idsInTrash(db, "enshrinee", ids);
  const repeats = repeatedIds(sheet);
  const writes: Plan<EnshrineeValues>["writes"] = [];
  for (const record of sheet.records) {
    const { value, errors } = checkRow(enshrineeRow, record, sheet.header.length);
    const label = record.cells.full_name?.trim() || `Row ${record.row}`;
    if (repeats.has(record.row)) errors.push({ column: "id", message: `The same id is on row ${repeats.get(record.row)}.` });
    if (!value || errors.length) {
      report.rows.push({ row: record.row, outcome: "error", label, errors });
      continue;
    }
    const id = value.id.toLowerCase() || crypto.randomUUID();
    const before = existing.get(id) ?? null;
    if (!before && trashed.has(id)) {
      report.rows.push({ row: record.row, outcome: "error", label, errors: [inTrash("enshrinee", trashed.get(id)!)] });
      continue;
    }
    // A formatted biography is cleaned like the console's (its plain text is what search reads).
    const biography = value.biography_html ? biographyColumns(value.biography_html) : { biography: value.biography, biographyHtml: null };
    writes.push({ values: { id, slug: slugFor(value.full_name, id), fullName: value.full_name, firstName: value.first_name, lastName: value.last_name, ...biography, publishAt: value.publish_at }, before });
    report.rows.push({ row: record.row, outcome: before ? "update" : "create", label, errors: [] });
  }
  return { report: tally(report), writes };
}

function plan(db: Reader, kind: ImportKind, sheet: Sheet) {
  return kind === "exhibits" ? planExhibits(db, sheet) : planEnshrinees(db, sheet);
}

// ---- writing ---------------------------------------------------------------------------------

/** Every column of `table` but the key taken from the new row (`excluded`), `updated_at` now. */
function upsertSet(columns: Record<string, { name: string }>) {
  const set: Record<string, ReturnType<typeof sql>> = {};
  for (const [key, column] of Object.entries(columns)) if (key !== "id" && key !== "updatedAt") set[key] = sql.raw(`excluded."${column.name}"`);
  set.updatedAt = sql`now()`;
  return set;
}

// 2,000 rows of 15 values stay under PostgreSQL's 65,535 parameters; each statement runs the search
// triggers once (drizzle/0005_search.sql), so fewer, larger statements cost less.
const ROWS_PER_INSERT = 2000;

async function writeExhibits(tx: Reader, writes: Plan<ExhibitValues>["writes"]) {
  await inChunks(writes, ROWS_PER_INSERT, async (chunk) => {
    await tx
      .insert(exhibits)
      .values(chunk.map((w) => w.values))
      .onConflictDoUpdate({ target: exhibits.id, set: upsertSet(getTableColumns(exhibits)) });
    const ids = chunk.map((w) => w.values.id);
    await tx.delete(enshrineeExhibits).where(inArray(enshrineeExhibits.exhibitId, ids));
    const links = chunk.flatMap((w) => (w.enshrineeIds ?? []).map((enshrineeId) => ({ enshrineeId, exhibitId: w.values.id })));
    await inChunks(links, 5000, (part) => tx.insert(enshrineeExhibits).values(part));
  });
}

async function writeEnshrinees(tx: Reader, writes: Plan<EnshrineeValues>["writes"]) {
  await inChunks(writes, ROWS_PER_INSERT, (chunk) =>
    tx
      .insert(enshrinees)
      .values(chunk.map((w) => w.values))
      .onConflictDoUpdate({ target: enshrinees.id, set: upsertSet(getTableColumns(enshrinees)) }),
  );
}

const uuidArray = (ids: Iterable<string>) => sql`${`{${[...ids].join(",")}}`}::uuid[]`;

/** What the deferred search triggers would have refreshed: the records, and the other side of their links. */
async function refreshSearch(tx: Reader, kind: ImportKind, writes: Plan<ExhibitValues | EnshrineeValues>["writes"]) {
  const ids = writes.map((w) => w.values.id);
  if (kind === "exhibits") {
    const people = new Set<string>();
    for (const w of writes) for (const id of [...(w.enshrineeIds ?? []), ...(((w.before as { enshrineeIds?: string[] } | null)?.enshrineeIds) ?? [])]) people.add(id);
    await tx.execute(sql`select search_refresh_exhibits(${uuidArray(ids)})`);
    await tx.execute(sql`select search_refresh_enshrinees(${uuidArray(people)})`);
  } else {
    await tx.execute(sql`select search_refresh_enshrinees(${uuidArray(ids)})`);
    await tx.execute(sql`select search_refresh_exhibits(array(select distinct l.exhibit_id from enshrinee_exhibits l where l.enshrinee_id = any(${uuidArray(ids)})))`);
  }
}

function auditEntries(kind: ImportKind, writes: Plan<ExhibitValues | EnshrineeValues>["writes"]): AuditEntry[] {
  const entityType = kind === "exhibits" ? "exhibit" : "enshrinee";
  return writes.map((w) => {
    const name = "title" in w.values ? w.values.title : (w.values as EnshrineeValues).fullName;
    const after = w.enshrineeIds ? { ...w.values, enshrineeIds: w.enshrineeIds } : w.values;
    return {
      action: `${entityType}.${w.before ? "update" : "create"}`,
      entityType,
      entityId: w.values.id,
      summary: `${w.before ? "Edited" : "Created"} ${entityType} ${name} (CSV import)`,
      before: w.before ?? undefined,
      after,
    };
  });
}

// ---- the service -----------------------------------------------------------------------------

const noun = (kind: ImportKind, n: number) => `${n} ${kind === "exhibits" ? (n === 1 ? "exhibit" : "exhibits") : n === 1 ? "enshrinee" : "enshrinees"}`;

export function createCollectionImport(deps: ChangeDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  return {
    /** The dry run: nothing is written. */
    async check(kind: ImportKind, bytes: Uint8Array): Promise<ImportReport> {
      const { sheet, fileErrors } = readSheet(kind, bytes);
      if (!sheet) return emptyReport(kind, fileErrors);
      return (await plan(db, kind, sheet)).report;
    },
    /** The import: planned again in its transaction, written only when every row is good. */
    async run(actor: Actor, kind: ImportKind, bytes: Uint8Array): Promise<ImportResult> {
      const { sheet, fileErrors } = readSheet(kind, bytes);
      if (!sheet) return { ok: false, report: emptyReport(kind, fileErrors), message: "Nothing was imported: the file cannot be read." };
      let report = emptyReport(kind, []);
      const done = await inChangeTransaction(deps, async (tx) => {
        // One import at a time: two at once could each take the same new slug.
        await tx.execute(sql`select pg_advisory_xact_lock(7172024)`);
        const planned = await plan(tx, kind, sheet);
        report = planned.report;
        if (report.errors) return false;
        // The search documents are rebuilt once, after every write (drizzle/0022), not per statement.
        await tx.execute(sql`select set_config('museum.search_deferred', 'on', true)`);
        if (kind === "exhibits") await writeExhibits(tx, planned.writes as Plan<ExhibitValues>["writes"]);
        else await writeEnshrinees(tx, planned.writes as Plan<EnshrineeValues>["writes"]);
        await tx.execute(sql`select set_config('museum.search_deferred', 'off', true)`);
        await refreshSearch(tx, kind, planned.writes);
        await recordAudits(tx, actor, auditEntries(kind, planned.writes), now());
        return true;
      });
      if (!done) return { ok: false, report, message: `Nothing was imported: ${report.errors === 1 ? "1 row has" : `${report.errors} rows have`} errors.` };
      return { ok: true, report, message: `Imported ${noun(kind, report.creates + report.updates)}: ${report.creates} created, ${report.updates} updated.` };
    },
    /** The export, in batches of 1,000 rows by id: the import's columns and cells. */
    async *batches(kind: ImportKind, size = 1000): AsyncGenerator<string[][]> {
      let after = "";
      for (;;) {
        const rows = kind === "exhibits" ? await exhibitCells(db, after, size) : await enshrineeCells(db, after, size);
        if (rows.length === 0) return;
        yield rows;
        after = rows[rows.length - 1][0];
        if (rows.length < size) return;
      }
    },
    columns: (kind: ImportKind) => COLUMNS[kind],
  };
}

const yes = (v: boolean) => (v ? "yes" : "no");

async function exhibitCells(db: Reader, after: string, size: number): Promise<string[][]> {
  const rows = await db
    .select({ e: exhibits, team: teams.name, category: categories.categoryName })
    .from(exhibits)
    .innerJoin(teams, eq(teams.id, exhibits.teamId))
    .innerJoin(categories, eq(categories.id, exhibits.categoryId))
    .where(after ? gt(exhibits.id, after) : undefined)
    .orderBy(asc(exhibits.id))
    .limit(size);
  const names = new Map<string, string[]>();
  if (rows.length) {
    const links = await db
      .select({ exhibitId: enshrineeExhibits.exhibitId, name: enshrinees.fullName })
      .from(enshrineeExhibits)
      .innerJoin(enshrinees, eq(enshrinees.id, enshrineeExhibits.enshrineeId))
      .where(inArray(enshrineeExhibits.exhibitId, rows.map((r) => r.e.id)))
      .orderBy(asc(enshrinees.fullName));
    for (const l of links) names.set(l.exhibitId, [...(names.get(l.exhibitId) ?? []), l.name]);
  }
  return rows.map(({ e, team, category }) => [
    e.id,
    e.title,
    e.shortTitle,
    team,
    category,
    String(e.year),
    yes(e.active),
    yes(e.favoriteStory),
    e.description,
    e.descriptionHtml ?? "",
    e.thumbnail,
    e.thumbnailAlt,
    e.matchingPhoto ?? "",
    e.matchingPhotoAlt ?? "",
    (names.get(e.id) ?? []).join(`${NAME_SEPARATOR} `),
    publishAtCell(e.publishAt),
  ]);
}

async function enshrineeCells(db: Reader, after: string, size: number): Promise<string[][]> {
  const rows = await db
    .select()
    .from(enshrinees)
    .where(after ? gt(enshrinees.id, after) : undefined)
    .orderBy(asc(enshrinees.id))
    .limit(size);
  return rows.map((r) => [r.id, r.fullName, r.firstName, r.lastName, r.biography, r.biographyHtml ?? "", publishAtCell(r.publishAt)]);
}

export type CollectionImport = ReturnType<typeof createCollectionImport>;
