/**
 * Form inputs shared by the account, contact and subscribe pages: a labelled text input, a
 * password input with a show/hide toggle, and the tick / block icon that shows whether a field
 * is valid or matches its twin.
 */
import { useId, useState, type InputHTMLAttributes } from "react";

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
};

export function TextField({ label, status, className, ...input }: InputProps) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block font-semibold">
        {label}
      </label>
      <div className="flex items-center gap-2">
        <input id={id} className="w-full rounded border border-gray-400 px-3 py-2 focus:border-ink focus:outline-2 focus:outline-gold" {...input} />
        {status ? <StatusIcon ok={status.ok} label={status.label} /> : null}
      </div>
    </div>
  );
}

export function PasswordField({ label, status, className, ...input }: InputProps) {
  const id = useId();
  const [visible, setVisible] = useState(false);
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block font-semibold">
        {label}
      </label>
      <div className="flex items-center gap-2">
        <input
          id={id}
          type={visible ? "text" : "password"}
          className="w-full rounded border border-gray-400 px-3 py-2 focus:border-ink focus:outline-2 focus:outline-gold"
          {...input}
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
