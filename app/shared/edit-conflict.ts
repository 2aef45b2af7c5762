/**
 * Edit conflicts (decision 029): every console form carries the version of the record it started
 * from; a save against a record someone else saved since is refused without writing, and the
 * answer lists, field by field, the person's value beside the one saved now. Shared by the
 * domain services (which decide) and the console's pages (which show the choice).
 */

/** A field's value as a form sends it: text, a number, a checkbox, a list of checkboxes, or nothing. */
export type FieldValue = string | number | boolean | string[] | null;

/** A piece of a long text's word-level difference: the other person's words `added`, the person's own `removed`. */
export interface TextChange {
  text: string;
  change: "same" | "added" | "removed";
}

export interface ConflictField {
  /** The form field's name. */
  field: string;
  /** What the refused save held. */
  mine: FieldValue;
  /** What is saved now. */
  theirs: FieldValue;
  /** For a long text: the word-level difference from the person's text to the one saved now. */
  difference?: TextChange[];
}

export interface EditConflict {
  /** The record's version now: the form carries it when saved again. */
  version: string;
  fields: ConflictField[];
  /**
   * Fields merged without a question: only the other person changed them, or they
   * changed other paragraphs of a long text. Their value (`theirs`) goes with the next save.
   */
  taken?: { field: string; theirs: FieldValue }[];
}

export const CONFLICT_MESSAGE = "Someone else saved this record while you were editing it. Nothing was saved: choose, field by field, what to keep.";

/** Form field names of the choice: `resolve:<field>` is "mine" or "theirs", `theirs:<field>` the saved value (JSON). */
export const RESOLVE_PREFIX = "resolve:";
export const THEIRS_PREFIX = "theirs:";

function same(a: FieldValue, b: FieldValue): boolean {
  if (Array.isArray(a) || Array.isArray(b)) return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

/**
 * The fields of `mine` whose value differs from `theirs` (the record as saved now), in `mine`'s
 * order; `null` when none does (saving would change nothing anyone else saved).
 */
export function conflictOf(version: string | number, mine: Record<string, FieldValue>, theirs: Record<string, FieldValue>): EditConflict | null {
  const fields = Object.keys(mine)
    .filter((field) => !same(mine[field], theirs[field] ?? null))
    .map((field) => ({ field, mine: mine[field], theirs: theirs[field] ?? null }));
  return fields.length ? { version: String(version), fields } : null;
}
