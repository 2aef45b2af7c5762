/**
 * The gift ticket's two emails (issue 13): the buyer's receipt, queued when the gift is paid,
 * and the recipient's email with the redeem link, queued on the delivery date. Visitors' words
 * (names, the message) are quoted so they cannot pass as the museum's.
 */
import { longDate } from "../../app/shared/ticket-words";
import { calendarDateIn } from "../../app/shared/calendar";
import { formatAmount } from "../../app/shared/money";
import type { gifts } from "../db/schema";
import { quotedBlock, quotedLine } from "../outbox/email-quoting";
import type { EmailJob } from "../outbox/outbox";
import { SITE_NAME } from "../../app/shared/site";

type Gift = typeof gifts.$inferSelect;

export function giftReceiptEmail(g: Gift, publicUrl: string): EmailJob {
  return {
    to: g.buyerEmail,
    purpose: "gift-receipt",
    subject: "Your Pittsburgh Sports Museum gift ticket receipt",
    text: [
      "Hello,",
      "",
      "Thank you for giving a museum ticket! This is your receipt. The gift is from",
      "",
      `    ${quotedLine(`${g.buyerFirstName} ${g.buyerLastName}`)}`,
      "",
      "for",
      "",
      `    ${quotedLine(`${g.recipientFirstName} ${g.recipientLastName}`)}`,
      "",
      `Gift ticket (${g.daysGranted} days): ${formatAmount(g.amountCents, g.currency)}`,
      g.cardLast4 ? `Paid with ${g.cardBrand ?? "card"} ending in ${g.cardLast4}` : "",
      `Payment reference: ${g.providerPaymentId ?? ""}`,
      `The recipient's email with the link to redeem it goes out on ${longDate(g.deliverOn)}.`,
      "",
      `Visit the museum: ${publicUrl}/`,
      "",
      SITE_NAME,
    ].join("\n"),
  };
}

export function giftEmail(g: Gift, link: string): EmailJob {
  const validUntil = g.tokenExpiresAt ? longDate(calendarDateIn("UTC", g.tokenExpiresAt)) : "";
  return {
    to: g.recipientEmail,
    purpose: "gift",
    subject: "You have been given a Pittsburgh Sports Museum ticket",
    text: [
      `Hello,`,
      "",
      "You have been given a ticket to the Pittsburgh Sports Museum & Hall of Fame by",
      "",
      `    ${quotedLine(`${g.buyerFirstName} ${g.buyerLastName}`)}`,
      "",
      ...(g.message ? ["with this message:", "", quotedBlock(g.message), ""] : []),
      `It gives ${g.daysGranted} days of full access to the museum's exhibits and stories. Open this link to`,
      "redeem it: you can sign in or create an account there, and the days are added to your ticket.",
      "",
      link,
      "",
      `The link works once, until ${validUntil}.`,
      "",
      SITE_NAME,
    ].join("\n"),
  };
}
