/**
 * Edit conflicts in a console form (decision 029), in one place for every edit page: placed
 * inside the form, it carries the version the form started from (a hidden `version` field), and
 * after a save refused because someone else saved the record since, it lists the fields that
 * differ, the person's value beside the one saved now, with "Keep mine" / "Take theirs" radio
 * buttons (so it works without JavaScript: the server applies the choice when the form is sent
 * again, see app/routes/admin/edit-conflict.server.ts).
 */
import type { EditConflict as Conflict, FieldValue, TextChange } from "~/shared/edit-conflict";
import { RESOLVE_PREFIX, THEIRS_PREFIX } from "~/shared/edit-conflict";
import { WordDifference } from "./WordDifference";

/** The conflict of an action's answer, if it is one. */
export function conflictIn(result: unknown): Conflict | undefined {
  return result && typeof result === "object" && "conflict" in result ? ((result as { conflict?: Conflict }).conflict ?? undefined) : undefined;
}

/**
 * What the person had in `field` when their save was refused, else `fallback` (the record's
 * value): for fields typedValues cannot bring back (checkboxes, lists) after a conflict.
 */
export function typedChoice<T extends FieldValue | undefined>(result: unknown, field: string, fallback: T): T {
  const conflict = conflictIn(result);
  const f = conflict?.fields.find((c) => c.field === field);
  if (f) return f.mine as T;
  // A field merged from the other person's save shows what it is now.
  const taken = conflict?.taken?.find((c) => c.field === field);
  return taken ? (taken.theirs as T) : fallback;
}

/**
 * Whether a checkbox was ticked when the form was sent back (a refused save carries the typed
 * `values`, in which a ticked box is "on" and an unticked one absent), else `fallback`.
 */
export function typedCheckbox(result: unknown, field: string, fallback: boolean): boolean {
  const fromConflict = typedChoice<FieldValue | undefined>(result, field, undefined);
  if (typeof fromConflict === "boolean") return fromConflict;
  const values = result && typeof result === "object" && "values" in result ? (result as { values?: Record<string, string> }).values : undefined;
  return values ? values[field] === "on" : fallback;
}

function shown(value: FieldValue, names: Record<string, string>): string {
  if (value === null || value === "") return "(empty)";
  if (value === true) return "Yes";
  if (value === false) return "No";
  if (Array.isArray(value)) return value.length ? value.map((v) => names[v] ?? v).join(", ") : "(none)";
  return names[String(value)] ?? String(value);
}

/** A conflict's long text: the other person's words underlined, the person's own struck through. */
function TextDifference({ changes }: { changes: TextChange[] }) {
  return (
    <WordDifference
      changes={changes}
      heading="What differs, word by word"
      legend={
        <>
          <ins className="bg-green-100 text-green-900">Underlined</ins>: only in the text saved now. <del className="bg-red-100 text-red-900">Struck through</del>: only in yours. To combine both, edit
          the text in the form above (nothing you typed is lost), then choose Keep mine.
        </>
      }
    />
  );
}

/** A long text's side, readable (from its difference): the words in it without the tags. */
const sideOf = (changes: TextChange[], side: "mine" | "theirs") =>
  changes
    .filter((c) => c.change === "same" || c.change === (side === "mine" ? "removed" : "added"))
    .map((c) => c.text)
    .join("");

/** One side of a field's choice: the radio button, its label and the value it keeps. */
function Choice({ field, side, label, value }: { field: string; side: "mine" | "theirs"; label: string; value: string }) {
  return (
    <label className="flex items-start gap-2">
      <input type="radio" name={`${RESOLVE_PREFIX}${field}`} value={side} required={side === "mine"} className="mt-1" />
      <span>
        <span className="font-semibold">{label}</span>
        <span className="block max-h-40 overflow-y-auto whitespace-pre-wrap break-words text-sm" data-testid={`conflict-${side}`}>
          {value}
        </span>
      </span>
    </label>
  );
}

export function EditConflict({
  result,
  version,
  labels,
  names = {},
}: {
  /** The action's answer (useActionData). */
  result: unknown;
  /** The record's version as the page loaded it (undefined for a new record). */
  version: string | number | undefined;
  /** Each field's label, by form field name. */
  labels: Record<string, string>;
  /** Names to show instead of ids or files (teams, categories, enshrinees, photos). */
  names?: Record<string, string>;
}) {
  const conflict = conflictIn(result);
  const current = conflict?.version ?? version;
  return (
    <>
      {current !== undefined ? <input type="hidden" name="version" value={current} /> : null}
      {conflict && conflict.fields.length ? (
        <section aria-labelledby="edit-conflict-heading" data-testid="edit-conflict" className="space-y-4 rounded border-2 border-red-700 bg-red-50 p-4">
          <h2 id="edit-conflict-heading" className="text-xl font-bold">
            Choose what to keep
          </h2>
          <p className="text-sm">Your value is on the left, the one saved now on the right. Your choices apply when you save again.</p>
          {conflict.fields.map((f) => (
            <fieldset key={f.field} className="rounded border border-stone-400 bg-white p-3">
              <legend className="px-1 font-semibold">{labels[f.field] ?? f.field}</legend>
              <div className="grid gap-3 sm:grid-cols-2">
                <Choice field={f.field} side="mine" label="Keep mine" value={f.difference ? sideOf(f.difference, "mine") : shown(f.mine, names)} />
                <Choice field={f.field} side="theirs" label="Take theirs" value={f.difference ? sideOf(f.difference, "theirs") : shown(f.theirs, names)} />
              </div>
              {f.difference ? <TextDifference changes={f.difference} /> : null}
              <input type="hidden" name={`${THEIRS_PREFIX}${f.field}`} value={JSON.stringify(f.theirs)} />
            </fieldset>
          ))}
          {conflict.taken?.length ? (
            <p className="text-sm" data-testid="conflict-taken">
              {`Already combined (only one of you changed them, or you changed different paragraphs): ${conflict.taken.map((t) => labels[t.field] ?? t.field).join(", ")}. The form shows them as they are now.`}
            </p>
          ) : null}
        </section>
      ) : null}
    </>
  );
}
