/**
 * Deleting asks first (issue 24, decision 031), without JavaScript too: the delete button posts
 * `intent=delete`; the action, seeing no `confirm=yes`, sends the page back with `?delete=confirm`
 * (or the banner's `?remove=`), which shows this confirmation with a second button and a Cancel
 * link. Only the second button's post moves the record to the Trash.
 */
import { useEffect, useId, useRef, type ReactNode } from "react";
import { Form, Link, useLocation, useRouteLoaderData, useSearchParams } from "react-router";
import { DangerButton } from "./ConsoleUi";

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
        {`It leaves the website at once. It can be restored from the Trash for ${days} days; after that it is deleted for good, with its photos.`}
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

/** An edit page's delete: the button, or once pressed (`?delete=confirm`) the confirmation. */
export function DeleteRecord({ what, label }: { what: string; label: string }) {
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  if (params.get("delete") === "confirm") return <ConfirmTrash what={what} fields={{ intent: "delete" }} action={pathname} cancelTo={pathname} />;
  return (
    <Form method="post" className="mt-8 border-t border-stone-300 pt-4">
      <DangerButton name="intent" value="delete">
        {label}
      </DangerButton>
    </Form>
  );
}
