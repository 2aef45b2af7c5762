/**
 * What a CSV import of the collection reports (decisions 034 and 051): each row's outcome with
 * the fields it would change (old and new cell), the counts, and the texts staff read in the
 * dry run and after the import, written once for the service, the page and the tests.
 */
import { plural } from "./plural";

export type ImportKind = "exhibits" | "enshrinees";

export interface CellError {
  column: string;
  message: string;
}

/** One field a row changes, as the file's cells say it: the record's value now and the file's. */
export interface FieldChange {
  column: string;
  before: string;
  after: string;
}

export type RowOutcomeKind = "create" | "update" | "unchanged" | "stale" | "error";

export interface RowOutcome {
  /** The row as a spreadsheet numbers it: the header is row 1. */
  row: number;
  outcome: RowOutcomeKind;
  /** The record's title or name, to recognise the row by. */
  label: string;
  /** The record's id when it exists (a stale row is chosen by it). */
  id?: string;
  errors: CellError[];
  changes: FieldChange[];
}

export interface ImportCounts {
  creates: number;
  updates: number;
  unchanged: number;
  /** Rows whose record changed since the export (its version is another): left as they are unless chosen. */
  stale: number;
}

export interface ImportReport extends ImportCounts {
  kind: ImportKind;
  /** Problems with the file as a whole (not UTF-8, not CSV, a missing column). */
  fileErrors: string[];
  rows: RowOutcome[];
  errors: number;
}

export const OUTCOME_LABELS: Record<RowOutcomeKind, string> = {
  create: "Would create",
  update: "Would update",
  unchanged: "Unchanged",
  stale: "Changed since the export",
  error: "Error",
};

export const recordNoun = (kind: ImportKind, n: number) => plural(n, kind === "exhibits" ? "exhibit" : "enshrinee");

const staleNote = (n: number, dryRun: boolean) =>
  n === 0 ? "" : dryRun ? `, ${n} changed since the export (left as ${n === 1 ? "it is" : "they are"} unless ticked)` : ` ${n} changed since the export ${n === 1 ? "was left as it is" : "were left as they are"}.`;

/** The dry run's summary. */
export function dryRunMessage(report: ImportReport): string {
  const errors = `${report.errors} ${report.errors === 1 ? "has errors" : "have errors"}`;
  return `Checked ${plural(report.rows.length, "row")}: ${report.creates} would be created, ${report.updates} would be updated, ${report.unchanged} unchanged${staleNote(report.stale, true)}, ${errors}. Nothing has been imported yet.`;
}

/** The import's summary. */
export function importedMessage(kind: ImportKind, c: ImportCounts): string {
  return `Imported ${recordNoun(kind, c.creates + c.updates)}: ${c.creates} created, ${c.updates} updated, ${c.unchanged} unchanged.${staleNote(c.stale, false)}`;
}

/** The counts in the address the import redirects to (`?done=`), and back. */
export const countsParam = (c: ImportCounts) => `${c.creates}.${c.updates}.${c.unchanged}.${c.stale}`;
export function countsOfParam(param: string | null): ImportCounts | null {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(param ?? "");
  return m ? { creates: Number(m[1]), updates: Number(m[2]), unchanged: Number(m[3]), stale: Number(m[4]) } : null;
}
