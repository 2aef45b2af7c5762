/**
 * The bulk actions of a console list (decision 034): a checkbox on each row (outside
 * the form, joined to it by the `form` attribute), "Select all on this page" (with JavaScript),
 * the choice of the ticked rows or all that match the list's search, an action select (with the
 * category select when an action needs one) and Apply. One plain POST form: works without
 * JavaScript. Moving rows to the trash asks first, naming them; the answer shows beside the form
 * and takes the focus, lists each row left as it was with its reason, and offers Undo.
 */
import { useEffect, useRef, type ReactNode } from "react";
import { Form, useLocation } from "react-router";
import { useHydrated } from "~/lib/use-hydrated";
import { ChoiceSelect } from "./ChoiceSelect";
import { AddLink, ConsoleHeading, ConsoleNotice, PhoneFold } from "./ConsoleUi";
import { ConfirmTrash } from "./TrashConfirm";

export const BULK_FORM_ID = "bulk-actions";

/** A row's checkbox, joined to the bulk form. */
export function BulkCheckbox({ id, name }: { id: string; name: string }) {
  return <input type="checkbox" name="ids" value={id} form={BULK_FORM_ID} aria-label={`Select ${name}`} className="h-4 w-4" />;
}

/** What the bulk form's post answers (collection-csv.server.ts): done (refusals per row, the batch to undo), refused, or the question first. */
export type BulkAnswer = {
  ok: boolean;
  message: string;
  refused?: { name: string; message: string }[];
  undo?: string;
  confirm?: { action: string; label: string; items: { id: string; name: string }[] };
};

const rowBoxes = () => document.querySelectorAll<HTMLInputElement>(`input[type="checkbox"][name="ids"][form="${BULK_FORM_ID}"]`);

/** The answer of an Apply or an Undo: focused where the person is, each refused row named, and Undo while it can be. */
function BulkAnswerNotice({ result }: { result: BulkAnswer }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [result]);
  return (
    <div ref={ref} tabIndex={-1} data-testid="bulk-answer" className="mb-3 outline-none">
      <ConsoleNotice result={result} />
      {result.refused?.length ? (
        <div role="alert" className="mb-3 rounded border border-red-700 bg-red-50 px-4 py-3 text-red-900">
          <p className="font-semibold">{`Left as ${result.refused.length === 1 ? "it was" : "they were"}:`}</p>
          <ul className="list-disc pl-6">
            {result.refused.map((r) => (
              <li key={r.name}>{`${r.name}: ${r.message}`}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {result.undo ? (
        <Form method="post" className="mb-3">
          <input type="hidden" name="intent" value="undo" />
          <input type="hidden" name="batch" value={result.undo} />
          <button type="submit" className="rounded border border-ink px-3 py-1 font-semibold">
            Undo
          </button>
        </Form>
      ) : null}
    </div>
  );
}

export function BulkActionsForm({
  actions,
  categories,
  total,
  result,
  filters,
}: {
  /** The list's search and filters: folded with the bulk controls behind one button on a phone. */
  filters: ReactNode;
  actions: { id: string; label: string; needs: "category" | null }[];
  categories?: { id: string; name: string }[];
  total: number;
  result?: BulkAnswer | null;
}) {
  const hydrated = useHydrated();
  const { pathname, search } = useLocation();
  const selectAll = useRef<HTMLInputElement>(null);
  // An answered Apply clears the ticks (a question keeps them: the rows are still to act on).
  useEffect(() => {
    if (!result || result.confirm) return;
    rowBoxes().forEach((box) => (box.checked = false));
    if (selectAll.current) selectAll.current.checked = false;
  }, [result]);
  if (actions.length === 0) return <PhoneFold label="Search and filters">{filters}</PhoneFold>;
  const confirm = result?.confirm;
  const noun = pathname.startsWith("/admin/enshrinees") ? "enshrinee" : "exhibit";
  return (
    <>
      {result && !confirm ? <BulkAnswerNotice result={result} /> : null}
      {confirm ? (
        <ConfirmTrash
          what={`${confirm.items.length === 1 ? `the ${noun}` : `these ${confirm.items.length} ${noun}s`}`}
          fields={{ action: confirm.action, ids: confirm.items.map((i) => i.id) }}
          action={`${pathname}${search}`}
          cancelTo={`${pathname}${search}`}
        >
          <ul className="mt-2 list-disc pl-6">
            {confirm.items.map((i) => (
              <li key={i.id}>{i.name}</li>
            ))}
          </ul>
        </ConfirmTrash>
      ) : null}
      <PhoneFold label="Search, filters and bulk actions">
      {filters}
      <Form method="post" id={BULK_FORM_ID} className="mb-3 flex flex-wrap items-end gap-3 text-sm" aria-label="Bulk actions">
        {hydrated ? (
          <label className="flex items-center gap-2">
            <input ref={selectAll} type="checkbox" className="h-4 w-4" onChange={(e) => rowBoxes().forEach((box) => (box.checked = e.currentTarget.checked))} />
            Select all on this page
          </label>
        ) : null}
        <fieldset className="flex flex-wrap gap-3">
          <legend className="sr-only">Rows to apply to</legend>
          <label className="flex items-center gap-1">
            <input type="radio" name="scope" value="selected" defaultChecked className="h-4 w-4" />
            The selected rows
          </label>
          <label className="flex items-center gap-1">
            <input type="radio" name="scope" value="matching" className="h-4 w-4" />
            {`All ${total} that match${search.replace(/(^|&)page=\d+/, "").length > 1 ? " this search" : ""}`}
          </label>
        </fieldset>
        <ChoiceSelect id="bulk-action" name="action" label="With the rows" empty="Choose an action" options={actions.map((a) => ({ id: a.id, name: a.label }))} />
        {actions.some((a) => a.needs === "category") && categories ? <ChoiceSelect id="bulk-category" name="category" label="Category (for Move to category)" empty="Choose a category" options={categories} /> : null}
        <button type="submit" className="rounded bg-ink px-3 py-1 font-semibold text-gold">
          Apply
        </button>
      </Form>
      </PhoneFold>
    </>
  );
}

/** A collection list's heading: its CSV export and import, Add, and the last action's answer. */
export function CollectionListHeading({ kind, title, add, result }: { kind: "exhibits" | "enshrinees"; title: string; add: string; result: { ok: boolean; message: string } | null }) {
  return (
    <>
      <ConsoleHeading
        actions={
          <div className="flex flex-wrap items-center gap-3">
            <a href={`/admin/${kind}/export`} className="font-semibold text-blue-800 underline">
              Export CSV
            </a>
            <a href={`/admin/${kind}/import`} className="font-semibold text-blue-800 underline">
              Import CSV
            </a>
            <AddLink to={`/admin/${kind}/new`}>{add}</AddLink>
          </div>
        }
      >
        {title}
      </ConsoleHeading>
      <ConsoleNotice result={result} />
    </>
  );
}
