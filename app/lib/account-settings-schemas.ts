/**
 * The forms of the account's own pages: name, email and password changes. Built on
 * the text rules and limits of account-schemas.ts (singleLineText, EMAIL_PATTERN, the password
 * length), so every field of the site follows the same rules and messages.
 */
import * as z from "zod/mini";
import { EMAIL_MAX, EMAIL_PATTERN, NAME_MAX, PASSWORD_MAX, PASSWORD_MIN, SINGLE_LINE, WELL_FORMED, singleLineText } from "../shared/account-schemas";
import { ACCOUNT_MESSAGES as A, TEXT_RULE_MESSAGES as T, VALIDATION as V } from "../shared/messages";

/** A password only compared with the stored hash (never stored): required, bounded. */
const currentPassword = z.string({ message: A.currentPasswordRequired }).check(z.minLength(1, A.currentPasswordRequired), z.maxLength(200, A.wrongPassword));

/** A new password, as sign-up holds it: 8 to 16 characters, no control characters. */
const newPassword = z
  .string({ message: V.passwordRequired })
  .check(
    z.minLength(1, V.passwordRequired),
    z.minLength(PASSWORD_MIN, V.passwordLength),
    z.maxLength(PASSWORD_MAX, V.passwordLength),
    z.regex(SINGLE_LINE, T.controlCharacters("Password")),
    z.regex(WELL_FORMED, T.brokenCharacters("Password")),
  );

export const changeNameSchema = z.object({
  firstName: singleLineText("First name", { max: NAME_MAX, required: V.firstNameRequired }),
  lastName: singleLineText("Last name", { max: NAME_MAX, required: V.lastNameRequired }),
});

export const changeEmailSchema = z.object({
  emailAddress: singleLineText("Email address", { max: EMAIL_MAX, required: V.emailRequired }).check(z.regex(EMAIL_PATTERN, V.emailFormat)),
  currentPassword,
});

export const changePasswordSchema = z
  .object({
    currentPassword,
    password: newPassword,
    passwordConfirm: z.string({ message: V.passwordConfirmRequired }).check(z.minLength(1, V.passwordConfirmRequired), z.maxLength(200)),
  })
  .check(z.refine((v) => v.password === v.passwordConfirm, { path: ["passwordConfirm"], message: A.newPasswordsMismatch }));

/** Deleting the account: the password asked again. */
export const deleteAccountSchema = z.object({ currentPassword });

/** The token of an emailed confirmation link. */
export const emailChangeTokenSchema = z.object({
  token: singleLineText("The link's token", { max: 200, required: A.emailLinkInvalid }).check(z.minLength(10, A.emailLinkInvalid)),
});

