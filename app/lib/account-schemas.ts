/**
 * Zod schemas for the account forms, shared by the browser and the server so every message of
 * spec section 5 is written once.
 */
import { z } from "zod";
import { VALIDATION as V } from "./messages";

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 16;
/** A standard email shape: something@domain.tld, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

const required = (message: string) => z.string({ message }).trim().min(1, message);
const checkbox = z.union([z.boolean(), z.literal("on"), z.literal("true"), z.literal("false")]).transform((v) => v === true || v === "on" || v === "true");

export const signUpSchema = z
  .object({
    firstName: required(V.firstNameRequired).max(100),
    lastName: required(V.lastNameRequired).max(100),
    emailAddress: required(V.emailRequired).max(254).regex(EMAIL_PATTERN, V.emailFormat),
    emailAddressConfirm: required(V.emailConfirmRequired).max(254),
    password: z.string({ message: V.passwordRequired }).min(1, V.passwordRequired).min(PASSWORD_MIN, V.passwordLength).max(PASSWORD_MAX, V.passwordLength),
    passwordConfirm: z.string({ message: V.passwordConfirmRequired }).min(1, V.passwordConfirmRequired),
    emailOptIn: checkbox.optional().default(false),
    termsAndConditions: checkbox.optional().default(false),
    // In the legacy payload but without inputs; accepted and ignored.
    BillingAddress1: z.string().max(200).optional(),
    BillingAddress2: z.string().max(200).optional(),
    City: z.string().max(100).optional(),
    State: z.string().max(100).optional(),
    ZipCode: z.string().max(20).optional(),
    phoneNumber: z.string().max(40).optional(),
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

export const loginSchema = z.object({
  emailAddress: z.string({ message: V.loginEmailInvalid }).trim().max(254).regex(EMAIL_PATTERN, V.loginEmailInvalid),
  password: z.string({ message: V.passwordRequired }).min(1, V.passwordRequired).max(200),
});

export const passwordResetRequestSchema = z.object({
  emailAddress: z.string({ message: V.forgotEmailRequired }).trim().min(1, V.forgotEmailRequired).max(254).regex(EMAIL_PATTERN, V.forgotEmailRequired),
});

export const passwordResetSchema = z
  .object({
    token: z.string({ message: "The reset link is missing its token." }).min(10, "The reset link is missing its token.").max(200),
    password: z.string({ message: V.resetPasswordLength }).min(PASSWORD_MIN, V.resetPasswordLength).max(PASSWORD_MAX, V.resetPasswordLength),
    confirmPassword: z.string({ message: V.resetPasswordLength }),
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
