/**
 * Zod schemas for the account forms, shared by the browser and the server so every message of
 * spec section 5 is written once; and the two text rules every form field of the site follows
 * (`singleLineText`, `multiLineText`), so nothing a visitor types can carry a line break or a
 * control character into a header, a log line or a museum email.
 */
import { z } from "zod";
import { TEXT_RULE_MESSAGES as T, VALIDATION as V } from "./messages";

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 16;
/** A standard email shape: something@domain.tld, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
export const EMAIL_MAX = 254;
export const NAME_MAX = 100;

/* eslint-disable no-control-regex -- these patterns exist to find control characters */
/**
 * Nothing that breaks or hides a line: C0 and C1 controls (tab, CR and LF included), the
 * Unicode line and paragraph separators, and the bidirectional overrides and isolates that
 * can make text read in another order than it is stored.
 */
const SINGLE_LINE = /^[^\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]*$/;
/** Tab, line feed and carriage return allowed; NUL and every other C0 or C1 control refused. */
const MULTI_LINE = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$/;
/* eslint-enable no-control-regex */
/** Well-formed UTF-16: every surrogate in a pair (a lone one cannot be stored or sent as UTF-8). */
const WELL_FORMED = /^(?:[^\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff])*$/;

interface TextOptions {
  max: number;
  /** The message when the field is missing or blank; omitted = may be blank. */
  required?: string;
}

/**
 * A one-line text field (a name, an email address, a token): no control characters, no lone
 * surrogates, trimmed, at most `max` characters. `field` names it in the messages.
 */
export function singleLineText(field: string, { max, required }: TextOptions) {
  const text = z
    .string(required ? { message: required } : undefined)
    .regex(SINGLE_LINE, T.controlCharacters(field))
    .regex(WELL_FORMED, T.brokenCharacters(field))
    .trim();
  return (required ? text.min(1, required) : text).max(max, T.tooLong(field, max));
}

/**
 * A text that may run over several lines (a message body): line breaks and tabs allowed, NUL
 * and other control characters and lone surrogates refused, trimmed, at most `max` characters.
 */
export function multiLineText(field: string, { max, required }: TextOptions) {
  const text = z
    .string(required ? { message: required } : undefined)
    .regex(MULTI_LINE, T.messageControlCharacters(field))
    .regex(WELL_FORMED, T.brokenCharacters(field))
    .trim();
  return (required ? text.min(1, required) : text).max(max, T.tooLong(field, max));
}

/** A password as typed: never trimmed, but no control characters or lone surrogates either. */
const password = (required: string, length: string) =>
  z
    .string({ message: required })
    .min(1, required)
    .min(PASSWORD_MIN, length)
    .max(PASSWORD_MAX, length)
    .regex(SINGLE_LINE, T.controlCharacters("Password"))
    .regex(WELL_FORMED, T.brokenCharacters("Password"));

const checkbox = z.union([z.boolean(), z.literal("on"), z.literal("true"), z.literal("false")]).transform((v) => v === true || v === "on" || v === "true");

export const signUpSchema = z
  .object({
    firstName: singleLineText("First name", { max: NAME_MAX, required: V.firstNameRequired }),
    lastName: singleLineText("Last name", { max: NAME_MAX, required: V.lastNameRequired }),
    emailAddress: singleLineText("Email address", { max: EMAIL_MAX, required: V.emailRequired }).regex(EMAIL_PATTERN, V.emailFormat),
    emailAddressConfirm: singleLineText("Confirm email address", { max: EMAIL_MAX, required: V.emailConfirmRequired }),
    password: password(V.passwordRequired, V.passwordLength),
    passwordConfirm: z.string({ message: V.passwordConfirmRequired }).min(1, V.passwordConfirmRequired).max(200),
    emailOptIn: checkbox.optional().default(false),
    termsAndConditions: checkbox.optional().default(false),
    // In the legacy payload but without inputs; accepted and ignored.
    BillingAddress1: singleLineText("Billing address", { max: 200 }).optional(),
    BillingAddress2: singleLineText("Billing address", { max: 200 }).optional(),
    City: singleLineText("City", { max: 100 }).optional(),
    State: singleLineText("State", { max: 100 }).optional(),
    ZipCode: singleLineText("ZIP code", { max: 20 }).optional(),
    phoneNumber: singleLineText("Phone number", { max: 40 }).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.emailAddressConfirm && v.emailAddress.toLowerCase() !== v.emailAddressConfirm.toLowerCase()) {
      ctx.addIssue({ code: "custom", path: ["emailAddressConfirm"], message: V.emailsMismatch });
    }
    if (v.passwordConfirm && v.password !== v.passwordConfirm) {
      ctx.addIssue({ code: "custom", path: ["passwordConfirm"], message: V.passwordsMismatch });
    }
    if (!v.termsAndConditions) ctx.addIssue({ code: "custom", path: ["termsAndConditions"], message: V.termsRequired });
  });
export type SignUpInput = z.infer<typeof signUpSchema>;

/**
 * The login password is only compared with the stored hash, never stored or shown: it is not
 * held to the text rules, so no password set before them stops working.
 */
export const loginSchema = z.object({
  emailAddress: singleLineText("Email address", { max: EMAIL_MAX, required: V.loginEmailInvalid }).regex(EMAIL_PATTERN, V.loginEmailInvalid),
  password: z.string({ message: V.passwordRequired }).min(1, V.passwordRequired).max(200),
});

export const passwordResetRequestSchema = z.object({
  emailAddress: singleLineText("Email address", { max: EMAIL_MAX, required: V.forgotEmailRequired }).regex(EMAIL_PATTERN, V.forgotEmailRequired),
});

const TOKEN_MISSING = "The reset link is missing its token.";

export const passwordResetSchema = z
  .object({
    token: singleLineText("The reset link's token", { max: 200, required: TOKEN_MISSING }).min(10, TOKEN_MISSING),
    password: password(V.resetPasswordLength, V.resetPasswordLength),
    confirmPassword: z.string({ message: V.resetPasswordLength }).max(200),
  })
  .refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: V.resetPasswordsMismatch });

/** First message per field, for showing next to inputs. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    out[key] ??= issue.message;
  }
  return out;
}
