/** Small building blocks shared by the console's pages: headings, notices, fields, buttons, pager. */
import { type ReactNode, useId } from "react";
import { Form, Link, useSearchParams } from "react-router";

export function ConsoleHeading({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
      <h1 className="font-display text-3xl font-bold uppercase tracking-wide">{children}</h1>
      {actions}
    </div>
  );
}

/** The answer of the last action: green when done, red when refused, read out by screen readers. */
export function ConsoleNotice({ result }: { result?: { ok: boolean; message: string; deleteRefused?: boolean } | null }) {
  // A refused delete is shown beside its button (DeleteRecord), where the person is.
  if (!result?.message || result.deleteRefused) return null;
  return (
    <p
      role={result.ok ? "status" : "alert"}
      data-testid="console-notice"
      className={`mb-4 rounded border px-4 py-3 ${result.ok ? "border-green-700 bg-green-50 text-green-900" : "border-red-700 bg-red-50 text-red-900"}`}
    >
      {result.message}
    </p>
  );
}

export function Field({
  label,
  name,
  error,
  hint,
  children,
}: {
  label: string;
  name: string;
  error?: string;
  hint?: string;
  children?: ReactNode;
}) {
  const errorId = `${name}-error`;
  const hintId = `${name}-hint`;
  return (
    <div className="space-y-1">
      <label htmlFor={name} className="block font-semibold">
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="text-sm text-stone-700">
          {hint}
        </p>
      ) : null}
      {children}
      {error ? (
        <p id={errorId} className="text-sm font-semibold text-red-800">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Props that tie an input to its Field's label, hint and error. */
export function inputProps(name: string, error?: string, hint?: boolean) {
  const describedBy = [hint ? `${name}-hint` : "", error ? `${name}-error` : ""].filter(Boolean).join(" ");
  return {
    id: name,
    name,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy || undefined,
    className: "w-full rounded border border-stone-500 bg-white px-3 py-2",
  } as const;
}

export function PrimaryButton({ children, name, value, busy }: { children: ReactNode; name?: string; value?: string; busy?: boolean }) {
  return (
    <button type="submit" name={name} value={value} disabled={busy} className="rounded bg-ink px-4 py-2 font-semibold text-gold hover:bg-steel disabled:opacity-60">
      {children}
    </button>
  );
}

/**
 * An edit form's preview (decision 015): sends the form's values, unsaved, to the page's preview
 * (`to`, e.g. /admin/teams/<id>/preview), which shows them as a visitor and as a member would see them.
 */
export function PreviewButton({ to, name, value, children = "Preview without saving" }: { to: string; name?: string; value?: string; children?: ReactNode }) {
  return (
    // A preview page takes an ordinary form post, also from a form that carries a file (decision 039).
    <button type="submit" formAction={to} formEncType="application/x-www-form-urlencoded" name={name} value={value} className="rounded border border-ink px-4 py-2 font-semibold">
      {children}
    </button>
  );
}

/** The saved record's preview, active or not. */
export function PreviewLink({ to }: { to: string }) {
  return (
    <Link to={to} className="font-semibold text-blue-800 underline">
      Preview as saved
    </Link>
  );
}

export function DangerButton({ children, name, value }: { children: ReactNode; name?: string; value?: string }) {
  return (
    <button type="submit" name={name} value={value} className="rounded border border-red-800 px-3 py-1 font-semibold text-red-800 hover:bg-red-50">
      {children}
    </button>
  );
}

/**
 * A refund in two steps, without JavaScript too: "Refund" opens the confirmation, which posts
 * `intent=refund` with the record's id under `field` and `confirm=yes` only once its box is
 * ticked (the action refuses a refund without it); `what` names the record.
 */
/** Said on the page a refund was interrupted on by the password check, once the password is confirmed. */
export const REFUND_RESUME_NOTICE = "Password confirmed. Nothing has been refunded yet: confirm the refund below to finish it.";

export function RefundForm({ field, id, what, resumed = false }: { field: string; id: string; what: string; /** Back from the password check: open and ticked. */ resumed?: boolean }) {
  const confirmId = useId();
  return (
    <details open={resumed || undefined}>
      <summary className="inline-block cursor-pointer rounded border border-red-800 px-3 py-1 font-semibold text-red-800 hover:bg-red-50">
        Refund<span className="sr-only"> {what}</span>
      </summary>
      <Form method="post" className="mt-2 flex max-w-sm flex-col items-start gap-2 rounded border border-red-800 p-3">
        <input type="hidden" name={field} value={id} />
        <label htmlFor={confirmId} className="flex items-start gap-2">
          <input id={confirmId} type="checkbox" name="confirm" value="yes" required defaultChecked={resumed} className="mt-1 h-4 w-4 shrink-0" />
          <span>Yes, refund {what}. This cannot be undone.</span>
        </label>
        <DangerButton name="intent" value="refund">
          Confirm the refund<span className="sr-only"> of {what}</span>
        </DangerButton>
      </Form>
    </details>
  );
}

/** Previous / next links that keep the other query parameters. */
/** Pages past this are not offered (the loaders clamp to it): narrow the search instead. */
const MAX_PAGE = 200;

export function Pager({ page, pageSize, total, search }: { page: number; pageSize: number; total: number; search: string }) {
  const pages = Math.min(MAX_PAGE, Math.max(1, Math.ceil(total / pageSize)));
  const to = (p: number) => {
    const params = new URLSearchParams(search);
    params.set("page", String(p));
    return `?${params.toString()}`;
  };
  return (
    <nav aria-label="Pages" className="mt-4 flex items-center gap-4 text-sm">
      {page > 1 ? (
        <Link to={to(page - 1)} className="font-semibold text-blue-800 underline">
          Previous
        </Link>
      ) : null}
      <span>{`Page ${Math.min(page, pages)} of ${pages} (${total.toLocaleString("en-US")} in all)`}</span>
      {total > MAX_PAGE * pageSize ? <span>Showing the first {(MAX_PAGE * pageSize).toLocaleString("en-US")}: search or sort to reach the others.</span> : null}
      {page < pages ? (
        <Link to={to(page + 1)} className="font-semibold text-blue-800 underline">
          Next
        </Link>
      ) : null}
    </nav>
  );
}

/** The search box of a list (a GET form: works without JavaScript, keeps the sort). */
/** The list's chosen sort (from the address), carried by its search and filter form so filtering keeps it. */
export function KeepSort() {
  const [params] = useSearchParams();
  return (
    <>
      {(["sort", "dir"] as const).map((name) => {
        const value = params.get(name);
        return value ? <input key={name} type="hidden" name={name} value={value} /> : null;
      })}
    </>
  );
}

export function ListSearch({ q, label, children }: { q?: string; label: string; children?: ReactNode }) {
  return (
    <form method="get" className="mb-4 flex flex-wrap items-end gap-3 text-sm" role="search">
      <KeepSort />
      <div>
        <label htmlFor="q" className="block font-semibold">
          {label}
        </label>
        <input id="q" name="q" type="search" defaultValue={q ?? ""} className="rounded border border-stone-500 px-2 py-1" />
      </div>
      {children}
      <button type="submit" className="rounded bg-ink px-3 py-1 font-semibold text-gold">
        Search
      </button>
    </form>
  );
}

/**
 * A long form's Save row (decision 063): it stays in view at the bottom of the screen while any part
 * of its form is on screen (position: sticky, no script), so Save is one tap away on a phone.
 */
export function SaveBar({ children, className = "" }: { children: ReactNode; className?: string }) {
  return (
    <div className={`sticky bottom-0 z-10 flex flex-wrap items-center gap-x-4 gap-y-2 border-t border-stone-300 bg-stone-50 py-3 shadow-[0_-4px_6px_-4px_rgb(0_0_0/0.2)] ${className}`} data-testid="save-bar">
      {children}
    </div>
  );
}

/**
 * Controls folded behind one button on a phone (decision 063): a <details> that works without
 * JavaScript, closed on a phone so a list's first row shows in the first screen; from 640 px
 * wide its button goes and its content always shows (::details-content), where the room is.
 */
export function PhoneFold({ label, children }: { label: string; children: ReactNode }) {
  return (
    <details className="mb-4 sm:details-content:[content-visibility:visible]" data-testid="phone-fold">
      <summary className="mb-2 inline-block cursor-pointer rounded border border-ink px-3 py-1 font-semibold sm:hidden">{label}</summary>
      {children}
    </details>
  );
}

export function AddLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="rounded bg-ink px-4 py-2 font-semibold text-gold hover:bg-steel">
      {children}
    </Link>
  );
}

/** A notice carried in the address after a redirect (saved, deleted): fixed texts only. */
export const NOTICES: Record<string, string> = {
  saved: "Saved.",
  // A stale save merged with the other person's: their changes to fields this person did not change are kept.
  merged: "Saved, together with what someone else saved meanwhile: their changes to the fields you did not change were kept (see the versions below).", deleted: "Moved to the trash. Restore it from the Trash if that was a mistake.", restored: "Version restored: it is now the current version." };
