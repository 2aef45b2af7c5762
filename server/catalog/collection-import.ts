/**
 * The collection as CSV, both ways (decisions 034 and 051): the
 * console's export of exhibits and of enshrinees, and their import. The import reads UTF-8 (with
 * or without a byte order mark) with a header row of the export's columns, any of them left out
 * but `id` and, for a new record, the columns it cannot do without; teams, categories and an
 * exhibit's enshrinees are named, not numbered. A row with an `id` that exists updates that
 * record, any other row creates one (with that id when given, so an export imports back into an
 * empty database to the same records), except the id of a record in the Trash, which is refused
 * (collection-trash.ts `idsInTrash`).
 *
 * The import changes only what its file says: a column the file does not have leaves that field
 * as it is; a row equal to its record is left alone (no version, no audit row); a row whose
 * record changed since the export (its `version` cell is another) is not applied unless the
 * person chose it; a cell that cannot be applied (plain text over formatted text) is an error.
 * Cells are checked by the record's own schema (app/shared/collection-records.ts), the one the
 * console's forms use. Portraits are not in the file and an import never touches them.
 *
 * `check` is the dry run: every row's outcome (would create, would update with each field's old
 * and new cell, unchanged, changed since the export, error) and every error by row number and
 * column name, nothing written. `run` plans the same file again inside one transaction, its
 * records locked, and writes only when no row has an error: all or nothing, each written record's
 * version one up, one audit row per written record, batched statements, one change notification.
 */
import { parse } from "csv-parse/sync";
import { asc, eq, getTableColumns, getTableName, gt, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { singleLineText } from "../../app/shared/text-fields";
import { slugify } from "../../app/shared/text";
import { enshrineeFields, exhibitFields, photoDescriptionIssues } from "../../app/shared/collection-records";
import { importedMessage, type CellError, type FieldChange, type ImportKind, type ImportReport, type RowOutcome } from "../../app/shared/collection-import-report";
import { categories, enshrineeExhibits, enshrinees, exhibits, teams } from "../db/schema";
import { recordAudits, type Actor, type AuditEntry } from "../audit/audit-trail";
import { textFromCells, type StoredText } from "./rich-text";
import { PUBLISHED_ALWAYS } from "./publication";
import { idsInTrash } from "./collection-trash";
import { inChangeTransaction, type ChangeDeps, type Reader } from "./bulk-actions";
import type { MediaStorage } from "../media/media-storage";
import { exhibitCopies } from "../media/library-copies";
import { removeDiskCopies } from "../media/media-release";

export type { ImportKind, ImportReport } from "../../app/shared/collection-import-report";

/** The export's columns, in order; the import takes the same header (any order, some left out). */
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
  "version",
] as const;
export const ENSHRINEE_COLUMNS = ["id", "full_name", "first_name", "last_name", "biography", "biography_html", "publish_at", "version"] as const;
type ExhibitColumn = (typeof EXHIBIT_COLUMNS)[number];
type EnshrineeColumn = (typeof ENSHRINEE_COLUMNS)[number];
const COLUMNS: Record<ImportKind, readonly string[]> = { exhibits: EXHIBIT_COLUMNS, enshrinees: ENSHRINEE_COLUMNS };
/** What a new record cannot do without: a file without `id` (all new records) needs them in its header. */
const REQUIRED: Record<ImportKind, readonly string[]> = { exhibits: ["title", "short_title", "team", "category", "year"], enshrinees: ["full_name", "first_name", "last_name"] };

/** Largest file taken (the route's body limit is a little above it). */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 20_000;
/** Between an exhibit's enshrinees in the `enshrinees` column. */
const NAME_SEPARATOR = ";";

export type ImportResult = { ok: true; report: ImportReport; message: string } | { ok: false; report: ImportReport; message: string };

// ---- reading the file ------------------------------------------------------------------------

/** The export neutralises formulas with a leading apostrophe (server/admin/csv.ts); the import takes it off again. */
const unneutralized = (cell: string) => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);

interface Sheet {
  header: string[];
  records: { row: number; cells: Record<string, string>; width: number }[];
}

/** The separators a spreadsheet saves "CSV" with: comma, semicolon (where the decimal mark is a comma), tab. */
const SEPARATORS = [",", ";", "\t"] as const;

/**
 * The file's separator, read from its header line: the one of SEPARATORS found most often outside
 * quotes (a comma when none is). A header names the columns, so its separators are all there are.
 */
export function separatorOf(text: string): (typeof SEPARATORS)[number] {
  const counts = new Map<string, number>(SEPARATORS.map((s) => [s, 0]));
  let quoted = false;
  for (const ch of text.replace(/^\uFEFF/, "")) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === "\n" || ch === "\r")) break;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  return SEPARATORS.reduce((best, s) => (counts.get(s)! > counts.get(best)! ? s : best), SEPARATORS[0]);
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
    rows = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true, delimiter: separatorOf(text) }) as string[][];
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
  const missing = header.includes("id") ? [] : REQUIRED[kind].filter((c) => !header.includes(c));
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

// ---- the file's cells, read by the record's schema ---------------------------------------------

const recordId = z.union([z.literal(""), z.string().uuid("must be a record id from an export, or empty")]);
/** yes or no; an empty cell says nothing (the field stays as it is, a new record takes the console's default). */
const yesNo = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => ["", "yes", "no", "true", "false", "1", "0"].includes(v), "must be yes or no")
  .transform((v) => (v === "" ? undefined : v === "yes" || v === "true" || v === "1"));
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
/** The record's version when it was exported (decision 029); empty = not checked. */
const versionCell = z
  .string()
  .trim()
  .refine((v) => v === "" || /^\d{1,9}$/.test(v), "version must be the whole number the export wrote, or empty")
  .transform((v) => (v === "" ? undefined : Number(v)));

/** The CSV adapter of an exhibit's schema: its cells by column, the record's own rules for its fields. */
const EXHIBIT_CELLS = {
  id: recordId,
  title: exhibitFields.title,
  short_title: exhibitFields.shortTitle,
  team: singleLineText("Team", { max: 100, required: "Please name the team" }),
  category: singleLineText("Category", { max: 100, required: "Please name the category" }),
  year: exhibitFields.year,
  active: yesNo,
  favorite_story: yesNo,
  description: exhibitFields.text,
  description_html: exhibitFields.text,
  thumbnail: exhibitFields.thumbnail,
  thumbnail_alt: exhibitFields.thumbnailAlt,
  matching_photo: exhibitFields.matchingPhoto,
  matching_photo_alt: exhibitFields.matchingPhotoAlt,
  enshrinees: singleLineText("Enshrinees", { max: 20_000 }),
  publish_at: publishAt,
  version: versionCell,
} satisfies Record<ExhibitColumn, z.ZodType>;

/** The CSV adapter of an enshrinee's schema. */
const ENSHRINEE_CELLS = {
  id: recordId,
  full_name: enshrineeFields.fullName,
  first_name: enshrineeFields.firstName,
  last_name: enshrineeFields.lastName,
  biography: enshrineeFields.biography,
  biography_html: enshrineeFields.biography,
  publish_at: publishAt,
  version: versionCell,
} satisfies Record<EnshrineeColumn, z.ZodType>;

type Cells<R extends Record<string, z.ZodType>> = { [K in keyof R]?: z.output<R[K]> };

/** The row's cells that are in the file, each read by its rule; the errors by column (an `id` column's message reads "id must be ..."). */
function readCells<R extends Record<string, z.ZodType>>(rules: R, record: Sheet["records"][number], width: number): { cells: Cells<R>; errors: CellError[] } {
  const errors: CellError[] = [];
  if (record.width > width) errors.push({ column: "(row)", message: `This row has ${record.width} cells; the header has ${width} columns.` });
  const cells: Record<string, unknown> = {};
  for (const [column, cell] of Object.entries(record.cells)) {
    const parsed = rules[column].safeParse(cell);
    if (parsed.success) cells[column] = parsed.data;
    else errors.push({ column, message: column === "id" ? `id ${parsed.error.issues[0].message}` : parsed.error.issues[0].message });
  }
  return { cells: cells as Cells<R>, errors };
}

/** A new record needs these columns (a file with `id` may leave them out for its updates). */
function missingForCreate(kind: ImportKind, sheet: Sheet): CellError[] {
  const missing = REQUIRED[kind].filter((c) => !sheet.header.includes(c));
  const noun = kind === "exhibits" ? "exhibit" : "enshrinee";
  return missing.length ? [{ column: "id", message: `This row makes a new ${noun} (its id is no ${noun}'s), which needs the column${missing.length === 1 ? "" : "s"} ${missing.join(", ")}.` }] : [];
}

// ---- records as the file says them -----------------------------------------------------------

/** An exhibit's fields the file carries, in the record's terms. */
interface ExhibitDraft {
  title: string;
  shortTitle: string;
  teamId: string;
  categoryId: string;
  year: number;
  active: boolean;
  favoriteStory: boolean;
  text: StoredText;
  thumbnail: string;
  thumbnailAlt: string;
  matchingPhoto: string;
  matchingPhotoAlt: string;
  enshrineeIds: string[];
  publishAt: Date | null;
}
/** A new exhibit starts as the console's "new" form does: Active ticked, published, no text or photos. */
const NEW_EXHIBIT: ExhibitDraft = { title: "", shortTitle: "", teamId: "", categoryId: "", year: 0, active: true, favoriteStory: false, text: { plain: "", html: null }, thumbnail: "", thumbnailAlt: "", matchingPhoto: "", matchingPhotoAlt: "", enshrineeIds: [], publishAt: PUBLISHED_ALWAYS };

function exhibitDraftOf(e: typeof exhibits.$inferSelect, enshrineeIds: string[]): ExhibitDraft {
  return {
    title: e.title,
    shortTitle: e.shortTitle,
    teamId: e.teamId,
    categoryId: e.categoryId,
    year: e.year,
    active: e.active,
    favoriteStory: e.favoriteStory,
    text: { plain: e.description, html: e.descriptionHtml },
    thumbnail: e.thumbnail,
    thumbnailAlt: e.thumbnailAlt,
    matchingPhoto: e.matchingPhoto ?? "",
    matchingPhotoAlt: e.matchingPhotoAlt ?? "",
    enshrineeIds: [...enshrineeIds].sort(),
    publishAt: e.publishAt,
  };
}

interface EnshrineeDraft {
  fullName: string;
  firstName: string;
  lastName: string;
  text: StoredText;
  publishAt: Date | null;
}
const NEW_ENSHRINEE: EnshrineeDraft = { fullName: "", firstName: "", lastName: "", text: { plain: "", html: null }, publishAt: PUBLISHED_ALWAYS };
const enshrineeDraftOf = (r: typeof enshrinees.$inferSelect): EnshrineeDraft => ({ fullName: r.fullName, firstName: r.firstName, lastName: r.lastName, text: { plain: r.biography, html: r.biographyHtml }, publishAt: r.publishAt });

/** Names of the records an exhibit names by id. */
interface ExhibitNames {
  team: (id: string) => string;
  category: (id: string) => string;
  enshrinee: (id: string) => string;
}

const yes = (v: boolean) => (v ? "yes" : "no");

/** An exhibit's cells, as the export writes them and the dry run compares them (`id` and `version` apart). */
function exhibitCellsOf(d: ExhibitDraft, names: ExhibitNames): Record<Exclude<ExhibitColumn, "id" | "version">, string> {
  return {
    title: d.title,
    short_title: d.shortTitle,
    team: names.team(d.teamId),
    category: names.category(d.categoryId),
    year: String(d.year),
    active: yes(d.active),
    favorite_story: yes(d.favoriteStory),
    description: d.text.plain,
    description_html: d.text.html ?? "",
    thumbnail: d.thumbnail,
    thumbnail_alt: d.thumbnailAlt,
    matching_photo: d.matchingPhoto,
    matching_photo_alt: d.matchingPhotoAlt,
    enshrinees: d.enshrineeIds
      .map(names.enshrinee)
      .sort((a, b) => a.localeCompare(b))
      .join(`${NAME_SEPARATOR} `),
    publish_at: publishAtCell(d.publishAt),
  };
}

function enshrineeCellsOf(d: EnshrineeDraft): Record<Exclude<EnshrineeColumn, "id" | "version">, string> {
  return { full_name: d.fullName, first_name: d.firstName, last_name: d.lastName, biography: d.text.plain, biography_html: d.text.html ?? "", publish_at: publishAtCell(d.publishAt) };
}

/** A row as the export writes it: the record's cells in the export's column order. */
function exportRow(columns: readonly string[], id: string, version: number, cells: Record<string, string>): string[] {
  return columns.map((c) => (c === "id" ? id : c === "version" ? String(version) : cells[c]));
}

/** Longest old or new value the dry run shows of a cell. */
const SHOWN_MAX = 300;
const shown = (cell: string) => (cell.length > SHOWN_MAX ? `${cell.slice(0, SHOWN_MAX)}…` : cell);

/** The cells that differ between the record now and as the row would leave it. */
function changesBetween(now: Record<string, string>, next: Record<string, string>): FieldChange[] {
  return Object.keys(next)
    .filter((column) => now[column] !== next[column])
    .map((column) => ({ column, before: shown(now[column]), after: shown(next[column]) }));
}

// ---- checking the rows -----------------------------------------------------------------------

const nameKey = (name: string) => name.trim().toLowerCase().replace(/\s+/g, " ");

/** Name → id, case and spacing ignored; a name two records share is ambiguous. */
function byName(rows: { id: string; name: string }[]) {
  const map = new Map<string, string[]>();
  for (const r of rows) map.set(nameKey(r.name), [...(map.get(nameKey(r.name)) ?? []), r.id]);
  return (name: string) => map.get(nameKey(name)) ?? [];
}

/** Id → name, for the cells of a record. */
const nameOf = (rows: { id: string; name: string }[]) => {
  const map = new Map(rows.map((r) => [r.id, r.name]));
  return (id: string) => map.get(id) ?? "";
};

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

type ExhibitValues = Omit<typeof exhibits.$inferInsert, "version" | "updatedAt"> & { id: string; slug: string };
type EnshrineeValues = Omit<typeof enshrinees.$inferInsert, "version" | "updatedAt" | "portrait" | "portraitAlt"> & { id: string; slug: string };
interface Write<Values> {
  values: Values;
  /** The record as it was (an exhibit with its enshrinees' ids), null for a new one. */
  before: (Record<string, unknown> & { version: number; enshrineeIds?: string[] }) | null;
  enshrineeIds?: string[];
}
interface Plan<Values> {
  report: ImportReport;
  writes: Write<Values>[];
}

/** How a plan reads: the dry run as it is; the import locks the records it reads and applies the stale rows the person chose. */
interface PlanOptions {
  lock: boolean;
  /** Ids of records changed since the export that the person chose to overwrite. */
  overwrite: ReadonlySet<string>;
}

function emptyReport(kind: ImportKind, fileErrors: string[]): ImportReport {
  return { kind, fileErrors, rows: [], creates: 0, updates: 0, unchanged: 0, stale: 0, errors: 0 };
}

function tally(report: ImportReport): ImportReport {
  const count = (outcome: RowOutcome["outcome"]) => report.rows.filter((r) => r.outcome === outcome).length;
  return { ...report, creates: count("create"), updates: count("update"), unchanged: count("unchanged"), stale: count("stale"), errors: count("error") };
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

const idsOf = (sheet: Sheet) => sheet.records.map((r) => r.cells.id?.trim().toLowerCase() ?? "").filter((id) => z.string().uuid().safeParse(id).success);

async function existingById<T extends typeof exhibits | typeof enshrinees>(db: Reader, table: T, ids: string[], lock: boolean) {
  const rows: T["$inferSelect"][] = [];
  await inChunks(ids, 1000, async (chunk) => {
    const query = db
      .select()
      .from(table as typeof exhibits)
      .where(inArray(table.id, chunk))
      .orderBy(asc(table.id));
    rows.push(...((lock ? await query.for("update") : await query) as T["$inferSelect"][]));
  });
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * How a checked row ends: unchanged (nothing to write), changed since the export (left unless
 * chosen), or a write with the fields it changes.
 */
function settle<Values>(
  report: ImportReport,
  writes: Write<Values>[],
  options: PlanOptions,
  row: { row: number; label: string; exportedVersion: number | undefined; changes: FieldChange[] },
  write: Write<Values>,
) {
  const { before } = write;
  const id = (write.values as { id: string }).id;
  const base = { row: row.row, label: row.label, errors: [], changes: row.changes };
  if (before && row.changes.length === 0) report.rows.push({ ...base, outcome: "unchanged", id });
  else if (before && row.exportedVersion !== undefined && row.exportedVersion !== before.version && !options.overwrite.has(id)) report.rows.push({ ...base, outcome: "stale", id });
  else {
    writes.push(write);
    report.rows.push({ ...base, outcome: before ? "update" : "create", ...(before ? { id } : {}) });
  }
}

async function planExhibits(db: Reader, sheet: Sheet, options: PlanOptions): Promise<Plan<ExhibitValues>> {
  const report = emptyReport("exhibits", []);
  const [teamRows, categoryRows, enshrineeRows, slugs] = await Promise.all([
    db.select({ id: teams.id, name: teams.name }).from(teams),
    db.select({ id: categories.id, name: categories.categoryName }).from(categories),
    db.select({ id: enshrinees.id, name: enshrinees.fullName }).from(enshrinees),
    db.select({ id: exhibits.id, slug: exhibits.slug }).from(exhibits),
  ]);
  const find = { team: byName(teamRows), category: byName(categoryRows), enshrinee: byName(enshrineeRows) };
  const names: ExhibitNames = { team: nameOf(teamRows), category: nameOf(categoryRows), enshrinee: nameOf(enshrineeRows) };
  const slugFor = slugger(slugs);
  const ids = idsOf(sheet);
  const existing = await existingById(db, exhibits, ids, options.lock);
  const trashed = await idsInTrash(db, "exhibit", ids);
  const links = new Map<string, string[]>();
  await inChunks([...existing.keys()], 1000, async (chunk) => {
    for (const l of await db.select().from(enshrineeExhibits).where(inArray(enshrineeExhibits.exhibitId, chunk))) links.set(l.exhibitId, [...(links.get(l.exhibitId) ?? []), l.enshrineeId]);
  });
  const repeats = repeatedIds(sheet);
  const writes: Write<ExhibitValues>[] = [];
  for (const record of sheet.records) {
    const { cells: v, errors } = readCells(EXHIBIT_CELLS, record, sheet.header.length);
    if (repeats.has(record.row)) errors.push({ column: "id", message: `The same id is on row ${repeats.get(record.row)}.` });
    const id = v.id?.toLowerCase() ?? "";
    const stored = existing.get(id);
    const label = record.cells.title?.trim() || stored?.title || `Row ${record.row}`;
    if (!stored && id && trashed.has(id) && !errors.length) errors.push(inTrash("exhibit", trashed.get(id)!));
    if (!stored && !errors.length) errors.push(...missingForCreate("exhibits", sheet));
    if (errors.length) {
      report.rows.push({ row: record.row, outcome: "error", label, errors, changes: [] });
      continue;
    }
    const now = stored ? exhibitDraftOf(stored, links.get(id) ?? []) : NEW_EXHIBIT;
    const next: ExhibitDraft = {
      ...now,
      title: v.title ?? now.title,
      shortTitle: v.short_title ?? now.shortTitle,
      year: v.year ?? now.year,
      active: v.active ?? now.active,
      favoriteStory: v.favorite_story ?? now.favoriteStory,
      thumbnail: v.thumbnail ?? now.thumbnail,
      thumbnailAlt: v.thumbnail_alt ?? now.thumbnailAlt,
      matchingPhoto: v.matching_photo ?? now.matchingPhoto,
      matchingPhotoAlt: v.matching_photo_alt ?? now.matchingPhotoAlt,
      publishAt: v.publish_at === undefined ? now.publishAt : v.publish_at,
    };
    // A name is looked up only when it names another record than the one named now.
    if (v.team !== undefined && nameKey(v.team) !== nameKey(names.team(now.teamId))) next.teamId = lookup(find.team, v.team, "team", "team", errors) ?? "";
    if (v.category !== undefined && nameKey(v.category) !== nameKey(names.category(now.categoryId))) next.categoryId = lookup(find.category, v.category, "category", "category", errors) ?? "";
    if (v.enshrinees !== undefined) {
      const listed = v.enshrinees
        .split(NAME_SEPARATOR)
        .map((n) => n.trim())
        .filter(Boolean);
      const key = (list: string[]) => [...new Set(list.map(nameKey))].sort().join("\n");
      if (key(listed) !== key(now.enshrineeIds.map(names.enshrinee))) next.enshrineeIds = [...new Set(listed.map((n) => lookup(find.enshrinee, n, "enshrinee", "enshrinees", errors)).filter((e): e is string => e !== null))].sort();
    }
    const text = textFromCells(now.text, { plain: v.description, html: v.description_html }, { plain: "description", html: "description_html" });
    if (text.ok) next.text = text.text;
    else errors.push({ column: text.column, message: text.message });
    for (const issue of photoDescriptionIssues(next)) errors.push({ column: issue.field === "thumbnailAlt" ? "thumbnail_alt" : "matching_photo_alt", message: issue.message });
    if (errors.length) {
      report.rows.push({ row: record.row, outcome: "error", label, errors, changes: [] });
      continue;
    }
    const recordId = id || crypto.randomUUID();
    const changes = stored ? changesBetween(exhibitCellsOf(now, names), exhibitCellsOf(next, names)) : [];
    settle(report, writes, options, { row: record.row, label, exportedVersion: v.version, changes }, {
      values: {
        id: recordId,
        slug: stored && stored.title === next.title ? stored.slug : slugFor(next.title, recordId),
        teamId: next.teamId,
        categoryId: next.categoryId,
        title: next.title,
        shortTitle: next.shortTitle,
        description: next.text.plain,
        descriptionHtml: next.text.html,
        thumbnail: next.thumbnail,
        thumbnailAlt: next.thumbnailAlt,
        matchingPhoto: next.matchingPhoto || null,
        matchingPhotoAlt: next.matchingPhotoAlt || null,
        active: next.active,
        year: next.year,
        favoriteStory: next.favoriteStory,
        publishAt: next.publishAt,
      },
      before: stored ? { ...stored, enshrineeIds: now.enshrineeIds } : null,
      enshrineeIds: next.enshrineeIds,
    });
  }
  return { report: tally(report), writes };
}

async function planEnshrinees(db: Reader, sheet: Sheet, options: PlanOptions): Promise<Plan<EnshrineeValues>> {
  const report = emptyReport("enshrinees", []);
  const slugFor = slugger(await db.select({ id: enshrinees.id, slug: enshrinees.slug }).from(enshrinees));
  const ids = idsOf(sheet);
  const existing = await existingById(db, enshrinees, ids, options.lock);
  const trashed = await idsInTrash(db, "enshrinee", ids);
  const repeats = repeatedIds(sheet);
  const writes: Write<EnshrineeValues>[] = [];
  for (const record of sheet.records) {
    const { cells: v, errors } = readCells(ENSHRINEE_CELLS, record, sheet.header.length);
    if (repeats.has(record.row)) errors.push({ column: "id", message: `The same id is on row ${repeats.get(record.row)}.` });
    const id = v.id?.toLowerCase() ?? "";
    const stored = existing.get(id);
    const label = record.cells.full_name?.trim() || stored?.fullName || `Row ${record.row}`;
    if (!stored && id && trashed.has(id) && !errors.length) errors.push(inTrash("enshrinee", trashed.get(id)!));
    if (!stored && !errors.length) errors.push(...missingForCreate("enshrinees", sheet));
    const now = stored ? enshrineeDraftOf(stored) : NEW_ENSHRINEE;
    const text = textFromCells(now.text, { plain: v.biography, html: v.biography_html }, { plain: "biography", html: "biography_html" });
    if (!text.ok && !errors.some((e) => e.column === text.column)) errors.push({ column: text.column, message: text.message });
    if (errors.length || !text.ok) {
      report.rows.push({ row: record.row, outcome: "error", label, errors, changes: [] });
      continue;
    }
    const next: EnshrineeDraft = {
      fullName: v.full_name ?? now.fullName,
      firstName: v.first_name ?? now.firstName,
      lastName: v.last_name ?? now.lastName,
      // A formatted biography is cleaned like the console's (its plain text is what search reads).
      text: text.text,
      publishAt: v.publish_at === undefined ? now.publishAt : v.publish_at,
    };
    const recordId = id || crypto.randomUUID();
    const changes = stored ? changesBetween(enshrineeCellsOf(now), enshrineeCellsOf(next)) : [];
    settle(report, writes, options, { row: record.row, label, exportedVersion: v.version, changes }, {
      values: { id: recordId, slug: stored && stored.fullName === next.fullName ? stored.slug : slugFor(next.fullName, recordId), fullName: next.fullName, firstName: next.firstName, lastName: next.lastName, biography: next.text.plain, biographyHtml: next.text.html, publishAt: next.publishAt },
      before: stored ?? null,
    });
  }
  return { report: tally(report), writes };
}

function plan(db: Reader, kind: ImportKind, sheet: Sheet, options: PlanOptions) {
  return kind === "exhibits" ? planExhibits(db, sheet, options) : planEnshrinees(db, sheet, options);
}

// ---- writing ---------------------------------------------------------------------------------

/**
 * What an existing record takes from its row: the columns the import writes (`excluded`, the new
 * row), its version one up (a form opened before is refused as stale), `updated_at` now; other
 * columns (an enshrinee's portrait) stay as they are.
 */
function upsertSet(table: typeof exhibits | typeof enshrinees, written: string[]) {
  const set: Record<string, ReturnType<typeof sql>> = {};
  const columns = getTableColumns(table) as Record<string, { name: string }>;
  for (const key of written) if (key !== "id") set[key] = sql.raw(`excluded."${columns[key].name}"`);
  set.version = sql.raw(`"${getTableName(table)}"."version" + 1`);
  set.updatedAt = sql`now()`;
  return set;
}

// 2,000 rows of 16 values stay under PostgreSQL's 65,535 parameters; each statement runs the search
// triggers once (drizzle/0005_search.sql), so fewer, larger statements cost less.
const ROWS_PER_INSERT = 2000;

async function writeExhibits(tx: Reader, writes: Write<ExhibitValues>[]) {
  await inChunks(writes, ROWS_PER_INSERT, async (chunk) => {
    await tx
      .insert(exhibits)
      .values(chunk.map((w) => w.values))
      .onConflictDoUpdate({ target: exhibits.id, set: upsertSet(exhibits, Object.keys(chunk[0].values)) });
    const ids = chunk.map((w) => w.values.id);
    await tx.delete(enshrineeExhibits).where(inArray(enshrineeExhibits.exhibitId, ids));
    const links = chunk.flatMap((w) => (w.enshrineeIds ?? []).map((enshrineeId) => ({ enshrineeId, exhibitId: w.values.id })));
    await inChunks(links, 5000, (part) => tx.insert(enshrineeExhibits).values(part));
  });
}

async function writeEnshrinees(tx: Reader, writes: Write<EnshrineeValues>[]) {
  await inChunks(writes, ROWS_PER_INSERT, (chunk) =>
    tx
      .insert(enshrinees)
      .values(chunk.map((w) => w.values))
      .onConflictDoUpdate({ target: enshrinees.id, set: upsertSet(enshrinees, Object.keys(chunk[0].values)) }),
  );
}

const uuidArray = (ids: Iterable<string>) => sql`${`{${[...ids].join(",")}}`}::uuid[]`;

/** What the deferred search triggers would have refreshed: the records, and the other side of their links. */
async function refreshSearch(tx: Reader, kind: ImportKind, writes: Write<ExhibitValues | EnshrineeValues>[]) {
  const ids = writes.map((w) => w.values.id);
  if (kind === "exhibits") {
    const people = new Set<string>();
    for (const w of writes) for (const id of [...(w.enshrineeIds ?? []), ...(w.before?.enshrineeIds ?? [])]) people.add(id);
    await tx.execute(sql`select search_refresh_exhibits(${uuidArray(ids)})`);
    await tx.execute(sql`select search_refresh_enshrinees(${uuidArray(people)})`);
  } else {
    await tx.execute(sql`select search_refresh_enshrinees(${uuidArray(ids)})`);
    await tx.execute(sql`select search_refresh_exhibits(array(select distinct l.exhibit_id from enshrinee_exhibits l where l.enshrinee_id = any(${uuidArray(ids)})))`);
  }
}

function auditEntries(kind: ImportKind, writes: Write<ExhibitValues | EnshrineeValues>[]): AuditEntry[] {
  const entityType = kind === "exhibits" ? "exhibit" : "enshrinee";
  return writes.map((w) => {
    const name = "title" in w.values ? w.values.title : (w.values as EnshrineeValues).fullName;
    const version = (w.before?.version ?? 0) + 1;
    const after = w.enshrineeIds ? { ...w.values, version, enshrineeIds: w.enshrineeIds } : { ...w.values, version };
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

/** A library image (public) named as a thumbnail or matching photo: the exhibit names its own member-only copy (library-copies.ts). */
async function ownImages(tx: Reader, storage: MediaStorage, writes: Write<ExhibitValues>[], copied: string[]) {
  for (const { values } of writes) {
    const copies = await exhibitCopies(tx, storage, values.id, [values.thumbnail, values.matchingPhoto], copied);
    values.thumbnail = copies.get(values.thumbnail) ?? values.thumbnail;
    if (values.matchingPhoto) values.matchingPhoto = copies.get(values.matchingPhoto) ?? values.matchingPhoto;
  }
}

// ---- the service -----------------------------------------------------------------------------

export function createCollectionImport(deps: ChangeDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  return {
    /** The dry run: nothing is written. */
    async check(kind: ImportKind, bytes: Uint8Array): Promise<ImportReport> {
      const { sheet, fileErrors } = readSheet(kind, bytes);
      if (!sheet) return emptyReport(kind, fileErrors);
      return (await plan(db, kind, sheet, { lock: false, overwrite: new Set() })).report;
    },
    /**
     * The import: planned again in its transaction with its records locked, written only when
     * every row is good. `overwrite`: ids of records changed since the export that the person
     * chose to apply their rows to anyway; other such rows are left as they are.
     */
    async run(actor: Actor, kind: ImportKind, bytes: Uint8Array, overwrite: Iterable<string> = []): Promise<ImportResult> {
      const { sheet, fileErrors } = readSheet(kind, bytes);
      if (!sheet) return { ok: false, report: emptyReport(kind, fileErrors), message: "Nothing was imported: the file cannot be read." };
      let report = emptyReport(kind, []);
      const copied: string[] = [];
      await inChangeTransaction(deps, async (tx) => {
        // One import at a time: two at once could each take the same new slug.
        await tx.execute(sql`select pg_advisory_xact_lock(7172024)`);
        const planned = await plan(tx, kind, sheet, { lock: true, overwrite: new Set([...overwrite].map((id) => id.toLowerCase())) });
        report = planned.report;
        if (report.errors || planned.writes.length === 0) return false;
        if (kind === "exhibits" && deps.storage) await ownImages(tx, deps.storage, planned.writes as Write<ExhibitValues>[], copied);
        // The search documents are rebuilt once, after every write (drizzle/0022), not per statement.
        await tx.execute(sql`select set_config('museum.search_deferred', 'on', true)`);
        if (kind === "exhibits") await writeExhibits(tx, planned.writes as Write<ExhibitValues>[]);
        else await writeEnshrinees(tx, planned.writes as Write<EnshrineeValues>[]);
        await tx.execute(sql`select set_config('museum.search_deferred', 'off', true)`);
        await refreshSearch(tx, kind, planned.writes);
        await recordAudits(tx, actor, auditEntries(kind, planned.writes), now());
        return true;
      }).catch(async (error: unknown) => {
        if (deps.storage) await removeDiskCopies(deps.storage, copied);
        throw error;
      });
      if (report.errors) return { ok: false, report, message: `Nothing was imported: ${report.errors === 1 ? "1 row has" : `${report.errors} rows have`} errors.` };
      return { ok: true, report, message: importedMessage(kind, report) };
    },
    /** The export, in batches of 1,000 rows by id: the import's columns and cells, and each record's version. */
    async *batches(kind: ImportKind, size = 1000): AsyncGenerator<string[][]> {
      let after = "";
      for (;;) {
        const rows = kind === "exhibits" ? await exhibitRows(db, after, size) : await enshrineeRows(db, after, size);
        if (rows.length === 0) return;
        yield rows;
        after = rows[rows.length - 1][0];
        if (rows.length < size) return;
      }
    },
    columns: (kind: ImportKind) => COLUMNS[kind],
  };
}

async function exhibitRows(db: Reader, after: string, size: number): Promise<string[][]> {
  const rows = await db
    .select({ e: exhibits, team: teams.name, category: categories.categoryName })
    .from(exhibits)
    .innerJoin(teams, eq(teams.id, exhibits.teamId))
    .innerJoin(categories, eq(categories.id, exhibits.categoryId))
    .where(after ? gt(exhibits.id, after) : undefined)
    .orderBy(asc(exhibits.id))
    .limit(size);
  const linked = new Map<string, string[]>();
  const people = new Map<string, string>();
  if (rows.length) {
    const links = await db
      .select({ exhibitId: enshrineeExhibits.exhibitId, id: enshrinees.id, name: enshrinees.fullName })
      .from(enshrineeExhibits)
      .innerJoin(enshrinees, eq(enshrinees.id, enshrineeExhibits.enshrineeId))
      .where(inArray(enshrineeExhibits.exhibitId, rows.map((r) => r.e.id)));
    for (const l of links) {
      linked.set(l.exhibitId, [...(linked.get(l.exhibitId) ?? []), l.id]);
      people.set(l.id, l.name);
    }
  }
  return rows.map(({ e, team, category }) =>
    exportRow(EXHIBIT_COLUMNS, e.id, e.version, exhibitCellsOf(exhibitDraftOf(e, linked.get(e.id) ?? []), { team: () => team, category: () => category, enshrinee: (id) => people.get(id) ?? "" })),
  );
}

async function enshrineeRows(db: Reader, after: string, size: number): Promise<string[][]> {
  const rows = await db
    .select()
    .from(enshrinees)
    .where(after ? gt(enshrinees.id, after) : undefined)
    .orderBy(asc(enshrinees.id))
    .limit(size);
  return rows.map((r) => exportRow(ENSHRINEE_COLUMNS, r.id, r.version, enshrineeCellsOf(enshrineeDraftOf(r))));
}

