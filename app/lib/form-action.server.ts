/**
 * How a form's action begins, the same for every account form: the rate limit's answer, then
 * the posted fields checked against their schema. A refusal is a 400 that names each field's
 * message, and, when asked, what was typed. A form the browser posted itself, with no script
 * running yet, then comes back filled (decision 036).
 */
import { data, type AppLoadContext } from "react-router";
import type { FormOutcome } from "~/components/account/AccountForm";
import { fieldErrors, typedValues } from "~/shared/form-errors";
import { rateLimitedAnswer } from "./guards.server";

/** The 429 answer when this request is over its rate limit, else null. */
export function formRateLimited(context: AppLoadContext) {
  return rateLimitedAnswer<FormOutcome>(context, (message) => ({ ok: false, message }));
}

/** What `safeParse` of a schema (Zod or Zod Mini) gives. */
type Parsed<T> = { success: true; data: T } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };

/**
 * The posted form checked against `schema`: its data and the raw fields, or the 400 answer with
 * each field's first message (the first field's message as the form's), and what was typed
 * when `keepTyped` (never a password).
 */
export async function checkedForm<T>(request: Request, schema: { safeParse(input: unknown): Parsed<T> }, { keepTyped = false } = {}) {
  const form = Object.fromEntries(await request.formData());
  const parsed = schema.safeParse(form);
  if (parsed.success) return { ok: true as const, data: parsed.data, form };
  const errors = fieldErrors(parsed.error);
  const refusal: FormOutcome = { ok: false, message: Object.values(errors)[0], errors, ...(keepTyped ? { values: typedValues(form) } : {}) };
  return { ok: false as const, answer: data(refusal, { status: 400 }) };
}
