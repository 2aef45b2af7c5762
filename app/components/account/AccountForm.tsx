/**
 * The frame of the account's forms (issue 13): a heading, the way back to the account page, the
 * outcome of the last submission as a status or an alert, and a plain POST form that works
 * before (and without) JavaScript.
 */
import type { ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import { SubmitButton } from "~/components/FormFields";

export interface FormOutcome {
  ok: boolean;
  message: string;
  errors?: Record<string, string>;
}

export function AccountFormPage({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <section className="mx-auto max-w-md px-4 py-10">
      <p>
        <Link to="/account" className="font-semibold text-steel underline hover:text-ink">
          Back to your account
        </Link>
      </p>
      <h1 className="mt-4 font-display text-3xl font-bold uppercase tracking-wide">{title}</h1>
      {intro ? <div className="mt-3">{intro}</div> : null}
      {children}
    </section>
  );
}

/** The outcome of the last submission: a polite status on success, an alert otherwise. */
export function Outcome({ outcome }: { outcome: FormOutcome | undefined }) {
  if (!outcome?.message) return null;
  return outcome.ok ? (
    <p role="status" className="mt-4 rounded border border-green-700 bg-green-50 p-3 font-semibold text-green-900" data-testid="form-outcome">
      {outcome.message}
    </p>
  ) : (
    <p role="alert" className="mt-4 rounded border border-red-700 bg-red-50 p-3 font-semibold text-red-900" data-testid="form-outcome">
      {outcome.message}
    </p>
  );
}

export function AccountForm({ submit, children }: { submit: string; children: ReactNode }) {
  const navigation = useNavigation();
  return (
    <Form method="post" noValidate className="mt-6 space-y-4">
      {children}
      <SubmitButton busy={navigation.state === "submitting"}>{submit}</SubmitButton>
    </Form>
  );
}
