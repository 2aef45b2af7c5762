/**
 * Zod schemas of the console's forms, shared by the pages and their actions, built on the
 * site's two text rules (no control characters, well-formed text, trimmed, bounded).
 */
import { z } from "zod";
import { EMAIL_MAX, EMAIL_PATTERN, NAME_MAX, singleLineText } from "~/lib/account-schemas";
import { STAFF_ROLES } from "./console-areas";

export const inviteSchema = z.object({
  email: singleLineText("Email address", { max: EMAIL_MAX, required: "Please enter the email address" }).regex(EMAIL_PATTERN, "Please check the email address format."),
  firstName: singleLineText("First name", { max: NAME_MAX, required: "Please enter the first name" }),
  lastName: singleLineText("Last name", { max: NAME_MAX, required: "Please enter the last name" }),
  role: z.enum(STAFF_ROLES, { message: "Please choose a role" }),
});

export const uuidSchema = z.string().uuid("Unknown record");

/** The first message per field, for the form's inline errors. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    errors[key] ??= issue.message;
  }
  return errors;
}
