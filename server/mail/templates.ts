/**
 * Every email the site sends, one template per message, all on one layout (`letter`): the
 * greeting, the message's own lines, the museum's name as signature, and what follows it (a
 * quoted message, an unsubscribe footer). The services decide when an email goes out and to
 * whom; the words are written here only. The HTML part is made from this text by the mailer
 * (html-email.ts). Visitors' words (names, messages) are quoted (email-quoting.ts) so they
 * cannot pass as the museum's.
 */
import { calendarDateIn, daysUntil } from "../../app/shared/calendar";
import { formatAmount, formatPrice } from "../../app/shared/money";
import { SITE_NAME, SITE_SHORT_NAME } from "../../app/shared/site";
import { longDate, ticketStatusWords } from "../../app/shared/ticket-words";
import type { ContactInput } from "../../app/shared/contact-schemas";
import type { gifts } from "../db/schema";
import { oneLine, quotedBlock, quotedLine } from "../outbox/email-quoting";
import type { EmailJob } from "../outbox/outbox";

interface Letter extends Omit<EmailJob, "text"> {
  /** The first line ("Hello," unless null: no greeting). */
  greeting?: string | null;
  body: string[];
  /** Signed with the museum's name (default true). */
  signed?: boolean;
  /** Lines after the signature, after a blank line. */
  after?: string[];
}

/** The one layout of the museum's emails. */
function letter({ greeting = "Hello,", body, signed = true, after, ...job }: Letter): EmailJob {
  const text = [...(greeting === null ? [] : [greeting, ""]), ...body, ...(signed ? ["", SITE_NAME] : []), ...(after ? ["", ...after] : [])];
  return { ...job, text: text.join("\n") };
}

interface Person {
  firstName: string;
  lastName: string;
}

/** A visitor's or member's name on a line of its own, quoted. */
const nameLine = (p: Person) => `    ${quotedLine(`${p.firstName} ${p.lastName}`)}`;

/** How a payment was made, or an empty line without card details. */
const paidWith = (p: { cardBrand: string | null; cardLast4: string | null }) => (p.cardLast4 ? `Paid with ${p.cardBrand ?? "card"} ending in ${p.cardLast4}` : "");

interface Paid {
  amountCents: number;
  currency: string;
  cardBrand: string | null;
  cardLast4: string | null;
  providerPaymentId: string | null;
}

/** The receipt of a ticket bought for oneself. */
export function ticketReceiptEmail(to: string, user: Person, paid: Paid, ticketDays: number, validThrough: string, publicUrl: string): EmailJob {
  return letter({
    to,
    purpose: "receipt",
    subject: `Your ${SITE_SHORT_NAME} ticket receipt`,
    body: [
      "Thank you for your visit! This is your receipt for the museum account in the name of:",
      "",
      nameLine(user),
      "",
      `Museum ticket (${ticketDays} days): ${formatAmount(paid.amountCents, paid.currency)}`,
      paidWith(paid),
      `Payment reference: ${paid.providerPaymentId}`,
      `Your access is valid through ${validThrough}.`,
      "",
      `Enjoy the museum: ${publicUrl}/`,
    ],
  });
}

export function reminderSubject(daysLeft: number): string {
  if (daysLeft > 1) return `Your museum ticket ends in ${daysLeft} days`;
  if (daysLeft === 1) return "Your museum ticket ends tomorrow";
  if (daysLeft === 0) return "Your museum ticket ends today";
  return "Your museum ticket has ended";
}

/** A reminder that a ticket ends (or ended), with its one-click unsubscribe link. */
export function ticketReminderEmail(
  user: Person & { email: string },
  r: { lastDay: string; today: string; ticketDays: number; priceCents: number; publicUrl: string; unsubscribeUrl: string },
): EmailJob {
  const left = daysUntil(r.lastDay, r.today);
  return letter({
    to: user.email,
    purpose: "ticket-reminder",
    subject: reminderSubject(left),
    listUnsubscribe: r.unsubscribeUrl,
    body: [
      `A note from the ${SITE_NAME} about the ticket of the museum account in the name of:`,
      "",
      nameLine(user),
      "",
      ticketStatusWords(r.lastDay, r.today),
      "",
      left >= 0
        ? `Renew it for another ${r.ticketDays} days for ${formatPrice(r.priceCents)}: the new days start after ${longDate(r.lastDay)}, so you lose none.`
        : `Renew it for another ${r.ticketDays} days for ${formatPrice(r.priceCents)} and the whole collection is yours again from the day you pay.`,
      "",
      "Renew your ticket:",
      `${r.publicUrl}/admission/payment`,
      "",
      "Thank you for being a member. See you in the galleries!",
    ],
    after: [
      "--",
      "You receive this reminder because your museum account has a ticket. To stop ticket reminders, open this link:",
      r.unsubscribeUrl,
      `or change it on your account page: ${r.publicUrl}/account`,
    ],
  });
}

type Gift = typeof gifts.$inferSelect;

/** The gift buyer's receipt, when the gift is paid. */
export function giftReceiptEmail(g: Gift, publicUrl: string): EmailJob {
  return letter({
    to: g.buyerEmail,
    purpose: "gift-receipt",
    subject: `Your ${SITE_SHORT_NAME} gift ticket receipt`,
    body: [
      "Thank you for giving a museum ticket! This is your receipt. The gift is from",
      "",
      nameLine({ firstName: g.buyerFirstName, lastName: g.buyerLastName }),
      "",
      "for",
      "",
      nameLine({ firstName: g.recipientFirstName, lastName: g.recipientLastName }),
      "",
      `Gift ticket (${g.daysGranted} days): ${formatAmount(g.amountCents, g.currency)}`,
      paidWith(g),
      `Payment reference: ${g.providerPaymentId ?? ""}`,
      `The recipient's email with the link to redeem it goes out on ${longDate(g.deliverOn)}.`,
      "",
      `Visit the museum: ${publicUrl}/`,
    ],
  });
}

/** The gift's recipient's email with the redeem link, on the delivery date. */
export function giftEmail(g: Gift, link: string): EmailJob {
  const validUntil = g.tokenExpiresAt ? longDate(calendarDateIn("UTC", g.tokenExpiresAt)) : "";
  return letter({
    to: g.recipientEmail,
    purpose: "gift",
    subject: `You have been given a ${SITE_SHORT_NAME} ticket`,
    body: [
      `You have been given a ticket to the ${SITE_NAME} by`,
      "",
      nameLine({ firstName: g.buyerFirstName, lastName: g.buyerLastName }),
      "",
      ...(g.message ? ["with this message:", "", quotedBlock(g.message), ""] : []),
      `It gives ${g.daysGranted} days of full access to the museum's exhibits and stories. Open this link to`,
      "redeem it: you can sign in or create an account there, and the days are added to your ticket.",
      "",
      link,
      "",
      `The link works once, until ${validUntil}.`,
    ],
  });
}

/** The link that chooses a new password (valid one hour). */
export function passwordResetEmail(to: string, user: Person, link: string): EmailJob {
  return letter({
    to,
    purpose: "password-reset",
    subject: `Reset your ${SITE_SHORT_NAME} password`,
    body: [
      "Someone (we hope you) asked to reset the password of the museum account for this",
      "email address. The name given when the account was created is:",
      "",
      nameLine(user),
      "",
      "Open this link within one hour to choose a new password:",
      "",
      link,
      "",
      "If you did not ask for this, you can ignore this email: your password stays the same.",
    ],
  });
}

/** To the new address: the link that confirms an email change. */
export function emailChangeConfirmEmail(newEmail: string, user: Person, link: string): EmailJob {
  return letter({
    to: newEmail,
    purpose: "email-change-confirm",
    subject: `Confirm your new ${SITE_SHORT_NAME} email address`,
    body: [
      "The museum account in the name of",
      "",
      nameLine(user),
      "",
      "asked to use this email address from now on. Open this link within 24 hours, signed in",
      "to that account, to confirm it:",
      "",
      link,
      "",
      "Until then the account keeps its old address. If you did not ask for this, ignore this email.",
    ],
  });
}

/** To the old address: a change was asked for. */
export function emailChangeNoticeEmail(oldEmail: string, newEmail: string, publicUrl: string): EmailJob {
  return letter({
    to: oldEmail,
    purpose: "email-change-notice",
    subject: `A change of your ${SITE_SHORT_NAME} email address was requested`,
    body: [
      `Someone signed in to your museum account asked to change its email address to ${quotedLine(newEmail, 254)}.`,
      "The change takes effect only once the link sent to that address is opened.",
      "",
      "If this was not you, sign in and change your password now, or reset it here:",
      `${publicUrl}/password/request`,
    ],
  });
}

/** To the old address: the change was made. */
export function emailChangeDoneEmail(oldEmail: string, newEmail: string): EmailJob {
  return letter({
    to: oldEmail,
    purpose: "email-change-done",
    subject: `Your ${SITE_SHORT_NAME} email address was changed`,
    body: [
      `Your museum account now uses the address ${quotedLine(newEmail, 254)}; this address is no longer used for it.`,
      "",
      "If this was not you, please contact us at once by replying to this email.",
    ],
  });
}

/** A staff invitation with its one-time link (valid 72 hours). */
/** Who sent a staff invitation: the email names them (decision 063). */
export interface Inviter {
  name: string;
  email: string;
}

const invitedBy = (i: Inviter) => (i.name === i.email ? i.email : `${i.name} (${i.email})`);

/** A new staff member's invitation (decision 063): who sent it, the role, and the link that chooses the password and opens the console. */
export function staffInvitationEmail(to: string, user: Person, i: { role: string; link: string; publicUrl: string; inviter: Inviter }): EmailJob {
  return letter({
    to,
    purpose: "staff-invite",
    subject: `${i.inviter.name} invited you to the staff console of the ${SITE_SHORT_NAME} website`,
    body: [
      `${invitedBy(i.inviter)} invited you to the museum website's staff console, with ${i.role} access, for the account in the name of:`,
      "",
      nameLine(user),
      "",
      "Choose your password with this link (valid 72 hours, once); the console opens after:",
      "",
      i.link,
      "",
      `Later, sign in at ${i.publicUrl}/login and the console opens. If you did not expect this invitation, ignore this email: nothing happens without the link.`,
    ],
  });
}

/** The six-digit code of a staff sign-in from a browser the account has not signed in on before (decision 055). */
export function signInCodeEmail(to: string, user: Person, code: string): EmailJob {
  return letter({
    to,
    purpose: "sign-in-code",
    subject: `${code} is your ${SITE_SHORT_NAME} sign-in code`,
    body: [
      "Someone (we hope you) entered the password of the staff account in the name of:",
      "",
      nameLine(user),
      "",
      "on a browser it has not signed in on before. To finish signing in, enter this code within 10 minutes:",
      "",
      `    ${code}`,
      "",
      "If this was not you, do not share the code: your password is known to someone else. Change it at once from the sign-in page's \"Forgot password\" link, and tell the museum's admin.",
      "",
      "A passkey or an authenticator app, set up on the console's Sign-in and security page, replaces these emails.",
    ],
  });
}

/** A change of a staff account's sign-in factors or sessions, told to its owner (decision 055). */
export function signInSecurityNoticeEmail(to: string, user: Person, notice: string): EmailJob {
  return letter({
    to,
    purpose: "sign-in-security",
    subject: `Security notice for your ${SITE_SHORT_NAME} account`,
    body: [
      "This is about the account in the name of:",
      "",
      nameLine(user),
      "",
      notice,
      "",
      "If this was not you or someone you asked, tell the museum's admin at once.",
    ],
  });
}

/**
 * A staff invitation to a member's own account: nothing changes until she follows the
 * link signed in as herself and accepts; her ticket and payments stay hers either way.
 */
export function staffMemberInvitationEmail(to: string, user: Person, i: { role: string; link: string; inviter: Inviter }): EmailJob {
  return letter({
    to,
    purpose: "staff-invite",
    subject: `${i.inviter.name} invited you to the staff of the ${SITE_SHORT_NAME} website`,
    body: [
      `${invitedBy(i.inviter)} invited you to ${i.role} access to the museum website's staff console, for your member account in the name of:`,
      "",
      nameLine(user),
      "",
      "Nothing changes until you accept. Follow this link (valid 72 hours), sign in with your usual password if asked, and accept:",
      "",
      i.link,
      "",
      "Your ticket, payments and member account stay yours, whatever you decide.",
    ],
  });
}

/**
 * A visitor's message, to the museum. Only the subject comes from our own list; everything the
 * visitor typed is quoted: the name between quotation marks, the message line by line after "> ".
 */
export function contactEmail(museumEmail: string, input: ContactInput): EmailJob {
  return letter({
    to: museumEmail,
    replyTo: input.email,
    purpose: "contact",
    subject: `Website message: ${input.subject} (from ${quotedLine(`${input.firstName} ${input.lastName}`, 100)})`,
    greeting: null,
    signed: false,
    body: [
      "A visitor wrote to the museum through the website's contact form.",
      "The name and the lines starting with \"> \" below are the visitor's own words, not the museum's.",
      "",
      `Visitor's name: ${quotedLine(`${input.firstName} ${input.lastName}`)}`,
      `Visitor's email: <${oneLine(input.email, 254)}> (replying answers the visitor)`,
      `Subject chosen: ${input.subject}`,
      `Newsletter: ${input.subscribe ? "yes, subscribe me" : "no"}`,
      "",
      "The visitor's message:",
      "",
      quotedBlock(input.message),
      "",
      "(End of the visitor's message.)",
    ],
  });
}

/** The museum's reply from the console's inbox, the visitor's message quoted below it. */
export function contactReplyEmail(message: { email: string; subject: string; message: string }, body: string, museumEmail: string): EmailJob {
  return letter({
    to: message.email,
    replyTo: museumEmail,
    purpose: "contact-reply",
    subject: `Re: ${oneLine(message.subject, 150)}`,
    greeting: null,
    body: [body],
    after: ["You wrote:", "", quotedBlock(message.message)],
  });
}
