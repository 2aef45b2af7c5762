/**
 * Merging a stale save (decision 050): a form opened on version `base` is saved after
 * someone else saved `theirs`. Field by field, against the base: a field only they changed takes
 * their value; a field only this person changed keeps this person's; a field both changed the
 * same way is fine; a long text both changed is merged block by block (paragraphs,
 * headings, list items) when they changed different blocks (diff3: node-diff3). What remains,
 * both changing the same thing differently, is a conflict the person resolves. Without the base
 * (a version the audit log does not hold) every differing field is a conflict, as before.
 *
 * A word-level difference (jsdiff) shows a long text's conflict: the other person's words marked
 * as added, the person's own as removed.
 */
import { diffWords } from "diff";
import { merge as diff3 } from "node-diff3";
import type { FieldValue, TextChange } from "../../app/shared/edit-conflict";

const same = (a: FieldValue | undefined, b: FieldValue | undefined) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export interface MergeOutcome {
  /** Every field of `mine`, with the other person's value where only they changed it (or the merged text). */
  merged: Record<string, FieldValue>;
  /** Fields whose value now comes from the other person's save (theirs alone, or a merged text). */
  taken: string[];
  /** Fields both changed differently: the person chooses. */
  conflicts: string[];
}

/** A rich text's blocks: each closing block tag ends one, so two edits of different paragraphs do not touch. */
function blocksOf(html: string): string[] {
  return html.split(/(?<=<\/(?:p|h[1-6]|li|blockquote|ul|ol)>)/).filter((b) => b.length > 0);
}

/** The three-way merge of a long text, or null when both changed the same block. */
export function mergeText(base: string, mine: string, theirs: string): string | null {
  const result = diff3(blocksOf(mine), blocksOf(base), blocksOf(theirs), { stringSeparator: /\n/ });
  return result.conflict ? null : result.result.join("");
}

export function mergeEdit(mine: Record<string, FieldValue>, theirs: Record<string, FieldValue>, base: Record<string, FieldValue> | undefined, longTexts: ReadonlySet<string>): MergeOutcome {
  const merged: Record<string, FieldValue> = {};
  const taken: string[] = [];
  const conflicts: string[] = [];
  for (const [field, m] of Object.entries(mine)) {
    const t = theirs[field] ?? null;
    merged[field] = m;
    if (same(m, t)) continue;
    if (!base) {
      conflicts.push(field);
      continue;
    }
    const b = base[field] ?? null;
    if (same(m, b)) {
      merged[field] = t;
      taken.push(field);
      continue;
    }
    if (same(t, b)) continue;
    const text = longTexts.has(field) && typeof m === "string" && typeof t === "string" && typeof b === "string" ? mergeText(b, m, t) : null;
    if (text !== null) {
      merged[field] = text;
      taken.push(field);
    } else {
      conflicts.push(field);
    }
  }
  return { merged, taken, conflicts };
}

/** The text without its tags, for reading a difference or a version (block ends become line breaks). */
export function readable(html: string): string {
  return html
    .replace(/<\/(?:p|h[1-6]|li|blockquote)>/g, "\n")
    .replace(/<br\s*\/?>/g, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .trim();
}

/** Word by word from the person's text to the other person's: their words `added`, the person's own `removed`. */
export function textDifference(mine: string, theirs: string): TextChange[] {
  return diffWords(readable(mine), readable(theirs)).map((part) => ({ text: part.value, change: part.added ? "added" : part.removed ? "removed" : "same" }));
}
