/** Form error shaping, one place for every form (public pages, account settings, console). */

/** What fieldErrors reads of a Zod error (full Zod and Zod Mini alike). */
interface Issues {
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}

/**
 * What was typed into a form, sent back with a refusal so that a form the browser posted itself
 * (no script running yet, decision 036) comes back filled as the script's page stays: the text
 * entries, at most 2000 characters each, never a password (a password is not written into a page).
 */
export function typedValues(form: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(form).flatMap(([k, v]) => (typeof v === "string" && !/password/i.test(k) ? [[k, v.slice(0, 2000)]] : [])));
}

/** The first message per field, for showing next to its input; "form" when no field is named. */
export function fieldErrors(error: Issues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) out[String(issue.path[0] ?? "form")] ??= issue.message;
  return out;
}
