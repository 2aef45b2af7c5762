/** Form error shaping, one place for every form (public pages, account settings, console). */

/** What fieldErrors reads of a Zod error (full Zod and Zod Mini alike). */
interface Issues {
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}

/** The first message per field, for showing next to its input; "form" when no field is named. */
export function fieldErrors(error: Issues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) out[String(issue.path[0] ?? "form")] ??= issue.message;
  return out;
}
