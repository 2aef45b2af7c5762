/**
 * Zod schemas for the account forms, shared by the browser and the server so every message of
 * spec section 5 is written once; and the two text rules every form field of the site follows
 * (`singleLineText`, `multiLineText`), so nothing a visitor types can carry a line break or a
 * control character into a header, a log line or a museum email.
 *
 * Written with `zod/mini` (decision 016): the same schemas run on the server and in the browser,
 * and the browser gets only the checks they use (about 6 KB gzipped instead of Zod's 25 KB).
 * Code that chains Zod's methods onto a text field (the staff console, the payment API) uses the
 * classic builders of `text-fields.ts`, which follow the same patterns and messages.
 */
import * as z from "zod/mini";
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
export const SINGLE_LINE = /^[^\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]*$/;
/** Tab, line feed and carriage return allowed; NUL and every other C0 or C1 control refused. */
export const MULTI_LINE = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$/;
/* eslint-enable no-control-regex */
/** Well-formed UTF-16: every surrogate in a pair (a lone one cannot be stored or sent as UTF-8). */
export const WELL_FORMED = /^(?:[^\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff])*$/;

// In the browser, no `new Function` probe (Zod's fast path): the pages' CSP refuses eval, and
// Chromium reports each refusal as a page issue. The server keeps the fast path.
if (typeof document !== "undefined") z.config({ jitless: true });

export interface TextOptions {
  max: number;
  /** The message when the field is missing or blank; omitted = may be blank. */
  required?: string;
}

/** The checks of a text field after its character rule: trimmed, required or not, at most `max`. */
function textChecks(field: string, pattern: RegExp, patternMessage: string, { max, required }: TextOptions) {
  return [
    z.regex(pattern, patternMessage),
    z.regex(WELL_FORMED, T.brokenCharacters(field)),
    z.trim(),
    ...(required ? [z.minLength(1, required)] : []),
    z.maxLength(max, T.tooLong(field, max)),
  ];
}

/**
 * A one-line text field (a name, an email address, a token): no control characters, no lone
 * surrogates, trimmed, at most `max` characters. `field` names it in the messages.
 */
export function singleLineText(field: string, options: TextOptions) {
  return z.string({ message: options.required ?? T.missing(field) }).check(...textChecks(field, SINGLE_LINE, T.controlCharacters(field), options));
}

/**
 * A text that may run over several lines (a message body): line breaks and tabs allowed, NUL
 * and other control characters and lone surrogates refused, trimmed, at most `max` characters.
 */
export function multiLineText(field: string, options: TextOptions) {
  return z.string({ message: options.required ?? T.missing(field) }).check(...textChecks(field, MULTI_LINE, T.messageControlCharacters(field), options));
}

/** A password as typed: never trimmed, but no control characters or lone surrogates either. */
const password = (required: string, length: string) =>
  z
    .string({ message: required })
    .check(
      z.minLength(1, required),
      z.minLength(PASSWORD_MIN, length),
      z.maxLength(PASSWORD_MAX, length),
      z.regex(SINGLE_LINE, T.controlCharacters("Password")),
      z.regex(WELL_FORMED, T.brokenCharacters("Password")),
    );

/** A checkbox as a form or JSON sends it ("on", "true", true), read as a boolean; absent = false. */
export const checkbox = z._default(
  z.optional(
    z.pipe(
      z.union([z.boolean(), z.literal("on"), z.literal("true"), z.literal("false")]),
      z.transform((v) => v === true || v === "on" || v === "true"),
    ),
  ),
  false,
);

/** At most `max` characters, required with `message` (a field that is only compared, never stored). */
const plainText = (message: string, max: number, min = 1) => z.string({ message }).check(...(min ? [z.minLength(min, message)] : []), z.maxLength(max));

export const signUpSchema = z
  .object({
    firstName: singleLineText("First name", { max: NAME_MAX, required: V.firstNameRequired }),
    lastName: singleLineText("Last name", { max: NAME_MAX, required: V.lastNameRequired }),
    emailAddress: singleLineText("Email address", { max: EMAIL_MAX, required: V.emailRequired }).check(z.regex(EMAIL_PATTERN, V.emailFormat)),
    emailAddressConfirm: singleLineText("Confirm email address", { max: EMAIL_MAX, required: V.emailConfirmRequired }),
    password: password(V.passwordRequired, V.passwordLength),
    passwordConfirm: plainText(V.passwordConfirmRequired, 200),
    emailOptIn: checkbox,
    termsAndConditions: checkbox,
    // In the legacy payload but without inputs; accepted and ignored.
    BillingAddress1: z.optional(singleLineText("Billing address", { max: 200 })),
    BillingAddress2: z.optional(singleLineText("Billing address", { max: 200 })),
    City: z.optional(singleLineText("City", { max: 100 })),
    State: z.optional(singleLineText("State", { max: 100 })),
    ZipCode: z.optional(singleLineText("ZIP code", { max: 20 })),
    phoneNumber: z.optional(singleLineText("Phone number", { max: 40 })),
  })
  .check(
    z.superRefine((v, ctx) => {
      if (v.emailAddressConfirm && v.emailAddress.toLowerCase() !== v.emailAddressConfirm.toLowerCase()) {
        ctx.addIssue({ code: "custom", path: ["emailAddressConfirm"], message: V.emailsMismatch });
      }
      if (v.passwordConfirm && v.password !== v.passwordConfirm) {
        ctx.addIssue({ code: "custom", path: ["passwordConfirm"], message: V.passwordsMismatch });
      }
      if (!v.termsAndConditions) ctx.addIssue({ code: "custom", path: ["termsAndConditions"], message: V.termsRequired });
    }),
  );
export type SignUpInput = z.infer<typeof signUpSchema>;

/**
 * The login password is only compared with the stored hash, never stored or shown: it is not
 * held to the text rules, so no password set before them stops working.
 */
export const loginSchema = z.object({
  emailAddress: singleLineText("Email address", { max: EMAIL_MAX, required: V.loginEmailInvalid }).check(z.regex(EMAIL_PATTERN, V.loginEmailInvalid)),
  password: plainText(V.passwordRequired, 200),
});

export const passwordResetRequestSchema = z.object({
  emailAddress: singleLineText("Email address", { max: EMAIL_MAX, required: V.forgotEmailRequired }).check(z.regex(EMAIL_PATTERN, V.forgotEmailRequired)),
});

export const TOKEN_MISSING = "The reset link is missing its token.";

export const passwordResetSchema = z
  .object({
    token: singleLineText("The reset link's token", { max: 200, required: TOKEN_MISSING }).check(z.minLength(10, TOKEN_MISSING)),
    password: password(V.resetPasswordLength, V.resetPasswordLength),
    confirmPassword: plainText(V.resetPasswordLength, 200, 0),
  })
  .check(z.refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: V.resetPasswordsMismatch }));

