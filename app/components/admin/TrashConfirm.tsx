/**
 * Deleting asks first (decision 031), without JavaScript too: the delete button posts
 * `intent=delete`; the action, seeing no `confirm=yes`, sends the page back with `?delete=confirm`
 * (or the banner's `?remove=`), which shows this confirmation with a second button and a Cancel
 * link. Only the second button's post moves the record to the Trash.
 */
import { useEffect, useId, useRef, type ReactNode } from "react";
import { Form, Link, useActionData, useLocation, useRouteLoaderData, useSearchParams } from "react-router";
import { DangerButton } from "./ConsoleUi";
import { plural } from "~/shared/plural";

/** TRASH_DAYS, as the console layout's loader hands it down. */
function useTrashDays(): number {
  const layout = useRouteLoaderData("routes/admin/layout") as { trashDays?: number } | undefined;
  return layout?.trashDays ?? 30;
}

/**
 * The confirmation itself: `fields` (a list is posted as repeated fields) are posted with
 * `confirm=yes` to `action`; Cancel goes back to `cancelTo`. It takes the focus where it appears,
 * so the question is where the person is looking.
 */
export function ConfirmTrash({ what, fields, action, cancelTo, children }: { what: string; fields: Record<string, string | string[]>; action: string; cancelTo: string; children?: ReactNode }) {
  const days = useTrashDays();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  return (
    <section aria-labelledby={headingId} data-testid="confirm-trash" className="my-6 rounded border border-red-800 bg-red-50 p-4">
      <h2 id={headingId} ref={heading} tabIndex={-1} className="text-lg font-bold outline-none">
        {`Move ${what} to the trash?`}
      </h2>
      {children}
      <p className="mt-1">
        {`It leaves the website at once. It can be restored from the Trash for ${plural(days, "day")}; after that it is deleted for good, with its photos.`}
      </p>
      <Form method="post" action={action} className="mt-3 flex flex-wrap items-center gap-4">
        {Object.entries(fields).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => <input key={`${name}=${v}`} type="hidden" name={name} value={v} />))}
        <input type="hidden" name="confirm" value="yes" />
        <DangerButton>Move to the trash</DangerButton>
        <Link to={cancelTo} className="font-semibold text-blue-800 underline" replace>
          Cancel
        </Link>
      </Form>
    </section>
  );
}

/**
 * An edit page's delete: the button, or once pressed (`?delete=confirm`) the confirmation. A
 * refused delete (the record is in use) says why right here, beside the button, and takes the
 * focus: the page's own notice at the top would be out of view. `rule` says on the page when a
 * record can be deleted with links and when not.
 */
export function DeleteRecord({ what, label, rule }: { what: string; label: string; rule?: string }) {
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const answer = useActionData() as { deleteRefused?: boolean; message?: string } | undefined;
  const refusal = useRef<HTMLParagraphElement>(null);
  const refused = answer?.deleteRefused ? answer.message : undefined;
  useEffect(() => {
    refusal.current?.focus();
  }, [answer]);
  if (params.get("delete") === "confirm" && !refused) return <ConfirmTrash what={what} fields={{ intent: "delete" }} action={pathname} cancelTo={pathname} />;
  return (
    <Form method="post" className="mt-8 space-y-2 border-t border-stone-300 pt-4">
      {refused ? (
        <p ref={refusal} tabIndex={-1} role="alert" data-testid="delete-refused" className="rounded border border-red-700 bg-red-50 px-4 py-3 text-red-900 outline-none">
          {refused}
        </p>
      ) : null}
      {rule ? <p className="text-sm text-stone-700">{rule}</p> : null}
      <DangerButton name="intent" value="delete">
        {label}
      </DangerButton>
    </Form>
  );
}
