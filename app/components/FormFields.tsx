/**
 * Form inputs shared by the account, contact and subscribe pages: a labelled text input, a
 * password input with a show/hide toggle, a checkbox, and the tick / block icon that shows
 * whether a field is valid or matches its twin. A field given an `error` is marked invalid
 * (aria-invalid) and shows the message under it, tied to it with aria-describedby.
 */
import { useId, useState, type InputHTMLAttributes, type ReactNode } from "react";
import { EMAIL_PATTERN } from "~/shared/account-schemas";

/**
 * An email address field that the browser itself checks as the spec's pattern does: a form
 * pressed before its scripts run is sent at once only when its fields pass (decision 036).
 */
export const EMAIL_INPUT = { type: "email", autoComplete: "email", required: true, pattern: EMAIL_PATTERN.source } as const;

export function StatusIcon({ ok, label }: { ok: boolean; label: string }) {
  return ok ? (
    <span role="img" aria-label={label} className="text-xl font-bold text-green-700" data-status="ok">
      ✓
    </span>
  ) : (
    <span role="img" aria-label={label} className="text-xl font-bold text-red-700" data-status="block">
      ⊘
    </span>
  );
}

type InputProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  name: string;
  /** null = no icon; otherwise whether the field is valid / matches. */
  status?: { ok: boolean; label: string } | null;
  /** The message saying what is wrong with the field, shown under it; none when it is fine. */
  error?: string | null;
  /** Extra classes for the label (the payment form keeps its short labels on one line). */
  labelClassName?: string;
};

/** Border and outline of every input, red while the field is marked invalid. */
export const INPUT_CLASS =
  "w-full rounded border border-gray-400 px-3 py-2 focus:border-ink focus:outline-2 focus:outline-gold aria-invalid:border-2 aria-invalid:border-red-700";

/** The props that mark a control invalid and tie its message to it. */
export function invalidProps(errorId: string, error: string | null | undefined, describedBy?: string) {
  if (!error) return { "aria-describedby": describedBy };
  return { "aria-invalid": true as const, "aria-describedby": [describedBy, errorId].filter(Boolean).join(" ") };
}

/** The message under an invalid field. */
export function FieldError({ id, error }: { id: string; error: string | null | undefined }) {
  if (!error) return null;
  return (
    <p id={id} className="mt-1 text-sm font-semibold text-red-800" data-testid="field-error">
      {error}
    </p>
  );
}

export function TextField({ label, status, error, labelClassName = "", className, ...input }: InputProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={className}>
      <label htmlFor={id} className={`mb-1 block font-semibold ${labelClassName}`}>
        {label}
      </label>
      <div className="flex items-center gap-2">
        <input id={id} type="text" className={INPUT_CLASS} {...input} {...invalidProps(errorId, error, input["aria-describedby"])} />
        {status ? <StatusIcon ok={status.ok} label={status.label} /> : null}
      </div>
      <FieldError id={errorId} error={error} />
    </div>
  );
}

export function PasswordField({ label, status, error, labelClassName = "", className, ...input }: InputProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const [visible, setVisible] = useState(false);
  return (
    <div className={className}>
      <label htmlFor={id} className={`mb-1 block font-semibold ${labelClassName}`}>
        {label}
      </label>
      <div className="flex items-center gap-2">
        <input
          id={id}
          type={visible ? "text" : "password"}
          className={INPUT_CLASS}
          {...input}
          {...invalidProps(errorId, error, input["aria-describedby"])}
        />
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-controls={id}
          aria-pressed={visible}
          className="rounded border border-ink px-2 py-1 text-sm font-semibold"
        >
          {visible ? "Hide" : "Show"}
          <span className="sr-only"> password</span>
        </button>
        {status ? <StatusIcon ok={status.ok} label={status.label} /> : null}
      </div>
      <FieldError id={errorId} error={error} />
    </div>
  );
}

type CheckboxProps = Omit<InputHTMLAttributes<HTMLInputElement>, "type"> & {
  name: string;
  /** The label's content: the checkbox's accessible name. */
  children: ReactNode;
  error?: string | null;
};

export function CheckboxField({ children, error, className, ...input }: CheckboxProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={className}>
      <label className="flex items-start gap-2">
        <input type="checkbox" className="mt-1 h-5 w-5 shrink-0 aria-invalid:outline-2 aria-invalid:outline-red-700" {...input} {...invalidProps(errorId, error, input["aria-describedby"])} />
        <span>{children}</span>
      </label>
      <FieldError id={errorId} error={error} />
    </div>
  );
}

export function SubmitButton({ children, busy }: { children: string; busy: boolean }) {
  return (
    <button
      type="submit"
      disabled={busy}
      className="rounded bg-ink px-6 py-3 font-semibold uppercase tracking-wide text-gold hover:bg-steel disabled:opacity-60"
    >
      {busy ? <Spinner label={children} /> : children}
    </button>
  );
}

export function Spinner({ label }: { label: string }) {
  return (
    <span className="inline-flex items-center gap-2" role="status">
      <span className="h-4 w-4 animate-spin rounded-full border-2 border-gold border-t-transparent" aria-hidden="true" />
      <span>{label}…</span>
    </span>
  );
}
