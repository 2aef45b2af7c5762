/** Zod schemas for the contact and subscribe forms (spec section 5), shared by browser and server. */
import { z } from "zod";
import { EMAIL_PATTERN } from "./account-schemas";
import { CONTACT_SUBJECTS, VALIDATION as V } from "./messages";

export const MESSAGE_MAX = 5000;
const NO_LINE_BREAKS = /^[^\r\n]*$/;

const name = (required: string) =>
  z.string({ message: required }).trim().min(1, required).max(100, "Please use at most 100 characters.").regex(NO_LINE_BREAKS, "Names cannot contain line breaks.");
const email = z.string({ message: V.emailRequired }).trim().min(1, V.emailRequired).max(254).regex(EMAIL_PATTERN, V.emailRequired);
const checkbox = z.union([z.boolean(), z.literal("on"), z.literal("true"), z.literal("false")]).transform((v) => v === true || v === "on" || v === "true");

export const contactSchema = z.object({
  firstName: name(V.firstNameRequired),
  lastName: name(V.lastNameRequired),
  email,
  subject: z.enum(CONTACT_SUBJECTS, { message: V.subjectRequired }),
  message: z.string({ message: V.messageRequired }).trim().min(1, V.messageRequired).max(MESSAGE_MAX, `Please keep your message under ${MESSAGE_MAX} characters.`),
  subscribe: checkbox.optional().default(false),
});
export type ContactInput = z.infer<typeof contactSchema>;

export const subscribeSchema = z.object({
  firstName: name(V.firstNameRequired),
  lastName: name(V.lastNameRequired),
  emailAddress: email,
  subscribe: checkbox.optional().default(false),
});

/** POST /api/mc/subscribe names the address `email` and carries the audience id. */
export const mailchimpSubscribeSchema = z.object({
  firstName: name(V.firstNameRequired),
  lastName: name(V.lastNameRequired),
  email,
  audience: z.string().max(50).optional(),
});
