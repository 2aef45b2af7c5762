/**
 * The console actions' side of edit conflicts (decision 029): the version a form started from,
 * and the person's choices after a refused save ("keep mine" / "take theirs", field by field),
 * applied to the form before it is validated, so the save carries what they chose.
 */
import { RESOLVE_PREFIX, THEIRS_PREFIX } from "~/shared/edit-conflict";

/** The `version` field a console form carries (the record's version when the page showed it), or undefined. */
export function formVersion(form: FormData): string | undefined {
  const v = form.get("version");
  return typeof v === "string" && v.length > 0 && v.length <= 64 ? v : undefined;
}

/** The numeric version of a collection record's form; undefined when absent or not a number. */
export function formRecordVersion(form: FormData): number | undefined {
  const v = formVersion(form);
  return v !== undefined && /^\d{1,9}$/.test(v) ? Number(v) : undefined;
}

/**
 * The form with each field marked `resolve:<field>=theirs` replaced by the value saved now
 * (`theirs:<field>`, JSON, sent back with the conflict), and the choice fields removed.
 */
export function resolvedForm(form: FormData): FormData {
  const out = new FormData();
  const theirs = new Map<string, string[]>();
  for (const [key, value] of form.entries()) {
    if (typeof value !== "string" || !key.startsWith(RESOLVE_PREFIX) || value !== "theirs") continue;
    const field = key.slice(RESOLVE_PREFIX.length);
    const saved = parsed(form.get(`${THEIRS_PREFIX}${field}`));
    if (saved) theirs.set(field, saved);
  }
  for (const [key, value] of form.entries()) {
    if (key.startsWith(RESOLVE_PREFIX) || key.startsWith(THEIRS_PREFIX) || theirs.has(key)) continue;
    out.append(key, value);
  }
  for (const [field, values] of theirs) for (const v of values) out.append(field, v);
  return out;
}

/** A saved value as the form would send it: text as is, a checkbox ticked as "on", a list as its entries. */
function parsed(raw: FormDataEntryValue | null): string[] | null {
  if (typeof raw !== "string") return null;
  try {
    const value = JSON.parse(raw) as unknown;
    if (value === null) return [""];
    if (value === false) return [];
    if (value === true) return ["on"];
    if (Array.isArray(value)) return value.map(String);
    if (typeof value === "string" || typeof value === "number") return [String(value)];
  } catch {
    // Not JSON: ignore the choice (the person's own value stays).
  }
  return null;
}

/**
 * The typed values a refused save comes back with, where fields were merged from the other
 * person's save (`conflict.taken`) showing those as they are now: text as it is, a
 * checkbox ticked or not (lists are shown from the conflict itself, EditConflict's typedChoice).
 */
export function valuesWithTaken(values: Record<string, string>, answer: { conflict?: { taken?: { field: string; theirs: unknown }[] } }): Record<string, string> {
  const out = { ...values };
  for (const { field, theirs } of answer.conflict?.taken ?? []) {
    if (typeof theirs === "string" || typeof theirs === "number") out[field] = String(theirs);
    else if (theirs === true) out[field] = "on";
    else if (theirs === false || theirs === null) delete out[field];
  }
  return out;
}
