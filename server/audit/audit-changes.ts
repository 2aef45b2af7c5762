/**
 * An audit entry's before and after (jsonb, as server/audit/audit-trail.ts wrote them) as the
 * audit page reads them (decision 063): one line per field, the field's name in words, its value
 * before and after as text. A field a change left alone is not listed; a created record lists
 * what it was made with, a deleted one what it held. Nested values (a payment inside a refund,
 * a reply inside a message) become fields of their own ("Payment › Amount"). A long text (a
 * biography, an exhibit's text) is shown as its word-level difference (jsdiff): the words it
 * lost removed, the words it gained added. A link to another record (a team, a category,
 * enshrinees, exhibits) is shown by that record's name when the reader looked it up (`names`).
 */
import type { TextChange } from "../../app/shared/edit-conflict";
import { readable, textDifference } from "../catalog/edit-merge";

export interface AuditChange {
  /** The field's name in words ("Valid through", "Payment › Amount"). */
  field: string;
  /** The value before, as text; null when the field did not exist before (created). */
  before: string | null;
  /** The value after, as text; null when the field is gone (deleted). */
  after: string | null;
  /** A long text changed: word by word, what was removed and what was added. */
  difference?: TextChange[];
}

/** Names the console's forms use, where the stored key does not say it in words. */
const LABELS: Record<string, string> = {
  descriptionHtml: "Text (members only)",
  biography: "Biography (members only)",
  enshrineeIds: "Enshrinees",
  exhibitIds: "Exhibits",
  teamId: "Team",
  categoryId: "Category",
  categoryName: "Name",
  sortOrder: "Order",
  publishAt: "Publication",
  active: "Listing",
  thumbnailAlt: "Thumbnail description",
  matchingPhotoAlt: "Matching photo description",
  portraitAlt: "Portrait description",
  alt: "Description",
  file: "Image",
  validThrough: "Valid through",
  amountCents: "Amount (cents)",
};

/** Stored keys that hold another record's id (or a list of them): shown by name when known. */
export const LINK_KEYS = ["teamId", "categoryId", "enshrineeIds", "exhibitIds"] as const;
export type LinkKey = (typeof LINK_KEYS)[number];
/** The names of linked records, by key and id (an id not found is shown as stored). */
export type LinkNames = Partial<Record<LinkKey, ReadonlyMap<string, string>>>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every id a stored state links to, by key (for looking their names up in one query each). */
export function linkedIds(states: unknown[]): Record<LinkKey, Set<string>> {
  const ids = Object.fromEntries(LINK_KEYS.map((k) => [k, new Set<string>()])) as Record<LinkKey, Set<string>>;
  for (const state of states) {
    if (state === null || typeof state !== "object" || Array.isArray(state)) continue;
    for (const key of LINK_KEYS) {
      const value = (state as Record<string, unknown>)[key];
      for (const id of Array.isArray(value) ? value : [value]) if (typeof id === "string" && UUID.test(id)) ids[key].add(id);
    }
  }
  return ids;
}

/** A state with its links' ids replaced by the linked records' names. */
function withNames(state: unknown, names: LinkNames): unknown {
  if (state === null || typeof state !== "object" || Array.isArray(state)) return state;
  const named: Record<string, unknown> = { ...(state as Record<string, unknown>) };
  for (const key of LINK_KEYS) {
    const map = names[key];
    const value = named[key];
    if (!map || value === undefined) continue;
    const name = (id: unknown) => (typeof id === "string" ? (map.get(id) ?? id) : id);
    named[key] = Array.isArray(value) ? value.map(name) : name(value);
  }
  return named;
}

/** Bookkeeping every write changes: saying it on every line would hide what changed. */
const NOISE = new Set(["id", "version", "updatedAt", "createdAt", "passwordHash", "searchText", "searchVector"]);

/** A text this long, or holding paragraphs, is read as a difference rather than two values. */
const LONG_TEXT = 120;

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

/** "validThrough" → "Valid through"; "stripe_id" → "Stripe id". */
export function fieldLabel(key: string): string {
  if (LABELS[key]) return LABELS[key];
  if (/^\d+$/.test(key)) return String(Number(key) + 1);
  const words = key
    .replace(/_/g, " ")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

type Leaf = string | number | boolean | null;

/** Every leaf of a stored value by its path of labels; a list of plain values stays one field. */
function flatten(value: unknown, path: string[], out: Map<string, Leaf | Leaf[]>): void {
  if (Array.isArray(value) && value.some((v) => v !== null && typeof v === "object")) {
    value.forEach((v, i) => flatten(v, [...path, String(i)], out));
  } else if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const [key, v] of Object.entries(value)) if (!NOISE.has(key)) flatten(v, [...path, key], out);
  } else {
    out.set(path.map(fieldLabel).join(" › "), (value ?? null) as Leaf | Leaf[]);
  }
}

function fieldsOf(state: unknown): Map<string, Leaf | Leaf[]> {
  const out = new Map<string, Leaf | Leaf[]>();
  if (state === null || state === undefined) return out;
  // A bare value (an old entry that stored one): one field, named as what it is.
  if (typeof state !== "object") out.set("Value", state as Leaf);
  else flatten(state, [], out);
  return out;
}

/** A value as words: yes or no, a list joined, an instant on the museum's clock, "(empty)". */
function textOf(value: Leaf | Leaf[] | undefined, instant: (at: Date) => string): string {
  if (value === null || value === undefined || value === "") return "(empty)";
  if (Array.isArray(value)) return value.length ? value.map((v) => textOf(v, instant)).join(", ") : "(none)";
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (typeof value === "string" && ISO_INSTANT.test(value)) return instant(new Date(value));
  return String(value);
}

const isLong = (value: Leaf | Leaf[] | undefined): value is string => typeof value === "string" && (value.length > LONG_TEXT || /<\/?(?:p|h[1-6]|li|br)\b|\n/.test(value));

/**
 * The lines of one entry, in the order the record lists its fields. `instant` writes a stored
 * instant (an ISO string) on the museum's clock; `names` gives linked records' names.
 */
export function auditChanges(before: unknown, after: unknown, instant: (at: Date) => string = (at) => at.toISOString(), names: LinkNames = {}): AuditChange[] {
  const was = fieldsOf(withNames(before, names));
  const now = fieldsOf(withNames(after, names));
  const created = before === null || before === undefined;
  const deleted = after === null || after === undefined;
  const changes: AuditChange[] = [];
  for (const field of new Set([...was.keys(), ...now.keys()])) {
    const b = was.get(field);
    const a = now.get(field);
    if (JSON.stringify(b ?? null) === JSON.stringify(a ?? null) && !created && !deleted) continue;
    // A long text edited (or filled in, or emptied): its words, removed and added.
    const text = (v: Leaf | Leaf[] | undefined) => v === null || v === undefined || typeof v === "string";
    if (!created && !deleted && (isLong(b) || isLong(a)) && text(b) && text(a)) {
      changes.push({ field, before: readable(b ?? "") || "(empty)", after: readable(a ?? "") || "(empty)", difference: textDifference(b ?? "", a ?? "") });
      continue;
    }
    const shown = (v: Leaf | Leaf[] | undefined) => (isLong(v) ? readable(v) : textOf(v, instant));
    changes.push({ field, before: created ? null : shown(b), after: deleted ? null : shown(a) });
  }
  return changes;
}
