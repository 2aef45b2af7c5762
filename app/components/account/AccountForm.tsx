/**
 * The frame of the account's forms: a heading, the way back to the account page, the
 * outcome of the last submission as a status or an alert, and a plain POST form that works
 * before (and without) JavaScript.
 */
import { useEffect, useRef, type ReactNode, type RefObject } from "react";
import { Form, Link, useActionData, useNavigation } from "react-router";
import { SubmitButton } from "~/components/FormFields";
import { focusField } from "~/lib/use-form-errors";

export interface FormOutcome {
  ok: boolean;
  message: string;
  errors?: Record<string, string>;
  /** What was typed, sent back with a refusal (`typedValues`, never a password). */
  values?: Record<string, string>;
}

/**
 * A field after the last submission: its name, its message, what was typed (sent back by the
 * action; `fallback` before any answer) and autofocus on the first field marked. The page the
 * action answers a form the browser posted itself with (no script running yet, decision 036)
 * opens filled and on that field, as the script's does. The first is the first the action names:
 * the schemas list their fields in page order (one `autofocus` per page, as HTML asks).
 */
export function answeredField(outcome: FormOutcome | undefined, name: string, fallback?: string) {
  const error = outcome?.errors?.[name];
  const first = error !== undefined && Object.keys(outcome?.errors ?? {})[0] === name;
  return { name, error, autoFocus: first ? true : undefined, defaultValue: outcome?.values?.[name] ?? fallback };
}

/** `back`: the link to the account page (not on a page for someone who has no account to go back to). */
export function AccountFormPage({ title, intro, children, back = true }: { title: string; intro?: ReactNode; children: ReactNode; back?: boolean }) {
  return (
    <section className="mx-auto max-w-md px-4 py-10">
      {back ? (
        <p>
          <Link to="/account" className="font-semibold text-steel underline hover:text-ink">
            Back to your account
          </Link>
        </p>
      ) : null}
      <h1 className="mt-4 font-display text-3xl font-bold uppercase tracking-wide">{title}</h1>
      {intro ? <div className="mt-3">{intro}</div> : null}
      {children}
    </section>
  );
}

/** The outcome of the last submission: a polite status on success, an alert otherwise. */
export function Outcome({ outcome }: { outcome: FormOutcome | undefined }) {
  const alert = useRef<HTMLParagraphElement>(null);
  // A refusal (a declined card, a spent link) is scrolled to where the person is looking; a form
  // that marks a field then moves focus there (its effect runs after this one).
  useEffect(() => {
    alert.current?.scrollIntoView({ block: "nearest" });
  }, [outcome]);
  if (!outcome?.message) return null;
  return outcome.ok ? (
    <p role="status" className="mt-4 rounded border border-green-700 bg-green-50 p-3 font-semibold text-green-900" data-testid="form-outcome">
      {outcome.message}
    </p>
  ) : (
    <p ref={alert} role="alert" className="mt-4 rounded border border-red-700 bg-red-50 p-3 font-semibold text-red-900" data-testid="form-outcome">
      {outcome.message}
    </p>
  );
}

/**
 * Where the person looks after a refused submission: focus on the first field marked invalid
 * (the alert itself scrolls into view, for refusals no field is to blame for).
 */
function useFocusOnRefusal(form: RefObject<HTMLFormElement | null>) {
  const outcome = useActionData() as FormOutcome | undefined;
  useEffect(() => {
    if (!outcome || outcome.ok || !form.current) return;
    const field = form.current.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (field) focusField(field);
  }, [outcome, form]);
}

export function AccountForm({ submit, children }: { submit: string; children: ReactNode }) {
  const navigation = useNavigation();
  const form = useRef<HTMLFormElement>(null);
  useFocusOnRefusal(form);
  return (
    <Form ref={form} method="post" noValidate className="mt-6 space-y-4">
      {children}
      <SubmitButton busy={navigation.state === "submitting"}>{submit}</SubmitButton>
    </Form>
  );
}
