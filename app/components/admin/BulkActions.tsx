/**
 * The bulk actions of a console list (decision 034): a checkbox on each row (outside the form,
 * joined to it by the `form` attribute), an action select (with the category select when an
 * action needs one) and Apply. One plain POST form: works without JavaScript.
 */
import { Form } from "react-router";
import { ChoiceSelect } from "./ChoiceSelect";
import { AddLink, ConsoleHeading, ConsoleNotice } from "./ConsoleUi";

export const BULK_FORM_ID = "bulk-actions";

/** A row's checkbox, joined to the bulk form. */
export function BulkCheckbox({ id, name }: { id: string; name: string }) {
  return <input type="checkbox" name="ids" value={id} form={BULK_FORM_ID} aria-label={`Select ${name}`} className="h-4 w-4" />;
}

export function BulkActionsForm({ actions, categories }: { actions: { id: string; label: string; needs: "category" | null }[]; categories?: { id: string; name: string }[] }) {
  if (actions.length === 0) return null;
  return (
    <Form method="post" id={BULK_FORM_ID} className="mb-3 flex flex-wrap items-end gap-3 text-sm" aria-label="Bulk actions">
      <ChoiceSelect id="bulk-action" name="action" label="With the selected rows" empty="Choose an action" options={actions.map((a) => ({ id: a.id, name: a.label }))} />
      {actions.some((a) => a.needs === "category") && categories ? <ChoiceSelect id="bulk-category" name="category" label="Category (for Move to category)" empty="Choose a category" options={categories} /> : null}
      <button type="submit" className="rounded bg-ink px-3 py-1 font-semibold text-gold">
        Apply
      </button>
    </Form>
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
