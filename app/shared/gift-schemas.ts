/**
 * The gift ticket form (decision 018): the buyer's and the recipient's names and
 * emails, an optional message and the delivery date (today or later on the museum's calendar,
 * at most a year ahead). Built on the text rules of account-schemas.ts, so every field of the
 * site refuses the same things with the same messages.
 */
import * as z from "zod/mini";
import { EMAIL_MAX, EMAIL_PATTERN, NAME_MAX, multiLineText, singleLineText } from "./account-schemas";
import { isCalendarDay } from "./calendar";
import { VALIDATION as V } from "./messages";

export const GIFT_MESSAGE_MAX = 1000;

/** The page's own words for the gift's fields and outcomes (the spec leaves them to us). */
export const GIFT_MESSAGES = {
  recipientFirstNameRequired: "Please enter the recipient's first name",
  recipientLastNameRequired: "Please enter the recipient's last name",
  recipientEmailRequired: "Please enter the recipient's email address",
  deliverOnRequired: "Please choose the day the gift is sent (MM/DD/YYYY)",
  deliverOnPast: "The gift can be sent today or on a later day, not in the past.",
  deliverOnTooFar: "The gift can be sent at most one year from today.",
  paid: "Thank you! Your gift ticket is paid.",
  linkInvalid: "This gift link is not valid. Please check that you opened the whole link from the email.",
  linkRedeemed: "This gift ticket was already redeemed. Each gift link can be used once.",
  linkExpired: "This gift link has expired: gift links are valid for one year after they are sent.",
  linkRevoked: "This gift ticket was refunded by the buyer, so its link no longer works.",
  redeemed: "The gift ticket is yours: its days have been added to your ticket. Enjoy the museum!",
} as const;

const email = (field: string, required: string) => singleLineText(field, { max: EMAIL_MAX, required }).check(z.regex(EMAIL_PATTERN, V.emailFormat));

/** The form's fields before the date check against today (which needs the museum's calendar). */
export const giftFieldsSchema = z.object({
  buyerFirstName: singleLineText("Your first name", { max: NAME_MAX, required: V.firstNameRequired }),
  buyerLastName: singleLineText("Your last name", { max: NAME_MAX, required: V.lastNameRequired }),
  buyerEmail: email("Your email address", V.emailRequired),
  recipientFirstName: singleLineText("Recipient's first name", { max: NAME_MAX, required: GIFT_MESSAGES.recipientFirstNameRequired }),
  recipientLastName: singleLineText("Recipient's last name", { max: NAME_MAX, required: GIFT_MESSAGES.recipientLastNameRequired }),
  recipientEmail: email("Recipient's email address", GIFT_MESSAGES.recipientEmailRequired),
  message: z._default(z.optional(multiLineText("Message", { max: GIFT_MESSAGE_MAX })), ""),
  deliverOn: z.string({ message: GIFT_MESSAGES.deliverOnRequired }).check(z.regex(/^\d{4}-\d{2}-\d{2}$/, GIFT_MESSAGES.deliverOnRequired)),
});

/** Why a redeem link does not work. */
export type RedeemRefusal = "invalid" | "redeemed" | "expired" | "revoked";

export type GiftInput = z.infer<typeof giftFieldsSchema>;

/** The last day a gift may be sent on: one year after `today` (both YYYY-MM-DD). */
export function lastDeliveryDay(today: string): string {
  const [y, m, d] = today.split("-").map(Number);
  return new Date(Date.UTC(y + 1, m - 1, d)).toISOString().slice(0, 10);
}

/** The delivery date's own problem, if any, on the museum's calendar day `today`. */
export function deliverOnProblem(deliverOn: string, today: string): string | null {
  if (!isCalendarDay(deliverOn)) return GIFT_MESSAGES.deliverOnRequired;
  if (deliverOn < today) return GIFT_MESSAGES.deliverOnPast;
  if (deliverOn > lastDeliveryDay(today)) return GIFT_MESSAGES.deliverOnTooFar;
  return null;
}
