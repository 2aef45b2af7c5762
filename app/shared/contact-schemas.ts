/**
 * Zod schemas for the contact and subscribe forms (spec section 5), shared by browser and
 * server. Every text field follows the site's text rules (account-schemas.ts): one-line fields
 * refuse control characters, the message refuses all but line breaks and tabs. `zod/mini`, as
 * account-schemas.ts (decision 016).
 */
import * as z from "zod/mini";
import { checkbox, EMAIL_MAX, EMAIL_PATTERN, multiLineText, NAME_MAX, singleLineText } from "./account-schemas";
import { CONTACT_SUBJECTS, VALIDATION as V } from "./messages";

export const MESSAGE_MAX = 5000;

const firstName = singleLineText("First name", { max: NAME_MAX, required: V.firstNameRequired });
const lastName = singleLineText("Last name", { max: NAME_MAX, required: V.lastNameRequired });
const email = singleLineText("Email address", { max: EMAIL_MAX, required: V.emailRequired }).check(z.regex(EMAIL_PATTERN, V.emailRequired));

export const contactSchema = z.object({
  firstName,
  lastName,
  email,
  subject: z.enum(CONTACT_SUBJECTS, { message: V.subjectRequired }),
  message: multiLineText("Your message", { max: MESSAGE_MAX, required: V.messageRequired }),
  subscribe: checkbox,
});
export type ContactInput = z.infer<typeof contactSchema>;

export const subscribeSchema = z.object({
  firstName,
  lastName,
  emailAddress: email,
  subscribe: checkbox,
});

/** POST /api/mc/subscribe names the address `email` and carries the audience id. */
export const mailchimpSubscribeSchema = z.object({
  firstName,
  lastName,
  email,
  audience: z.optional(singleLineText("Audience", { max: 50 })),
});
