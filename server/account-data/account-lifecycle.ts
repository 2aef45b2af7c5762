/**
 * The account's data taken out and the account deleted (decision 017).
 *
 * - Export: the profile, the payments, the gift tickets it bought or redeemed, the newsletter
 *   subscription and the contact messages sent from the account's address, as one JSON document.
 * - Delete (password asked again; staff accounts are removed by an admin instead): in one
 *   transaction the account row goes, and with it (by cascade) its sessions, reset links and
 *   email-change links; its payments stay for the books, anonymized (no account, no receipt
 *   address, no card digits), and so do the gift tickets it bought (the buyer's name becomes
 *   "A friend", no address, no card digits: a gift not yet sent still goes out); its payment incidents lose the receipt address; its newsletter
 *   subscription is removed, and Mailchimp is told through the outbox. The address can sign up
 *   again at once.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { contactMessages, gifts, paymentIncidents, payments, subscribers, ticketReminders, users } from "../db/schema";
import { enqueue } from "../outbox/outbox";
import { verifyPassword } from "../accounts/passwords";
import { transactionRetrying } from "../db/retrying";

const lower = (email: string) => email.trim().toLowerCase();

export type DeleteOutcome = "deleted" | "wrong_password" | "staff" | "no_account";

export interface AccountLifecycleDeps {
  db: Database;
  now?: () => Date;
  onEnqueued?: () => void;
  /** Waits until every instance knows the account's sessions are gone (the session store's `settled`, decision 040). */
  accessSettled?: () => Promise<void>;
}

export function createAccountLifecycle({ db, now = () => new Date(), onEnqueued, accessSettled }: AccountLifecycleDeps) {
  return {
    /** Everything the site holds about the account, for 'Download my data'; null if it is gone. */
    async exportData(userId: string) {
      const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
      if (!user) return null;
      const email = lower(user.email);
      const [paid, subs, messages, reminders, giftRows] = await Promise.all([
        db.select().from(payments).where(eq(payments.userId, userId)).orderBy(desc(payments.createdAt)),
        db.select().from(subscribers).where(eq(subscribers.email, email)),
        db
          .select({ createdAt: contactMessages.createdAt, firstName: contactMessages.firstName, lastName: contactMessages.lastName, email: contactMessages.email, subject: contactMessages.subject, message: contactMessages.message, subscribe: contactMessages.subscribe })
          .from(contactMessages)
          .where(sql`lower(${contactMessages.email}) = ${email}`)
          .orderBy(desc(contactMessages.createdAt)),
        db.select().from(ticketReminders).where(eq(ticketReminders.userId, userId)).orderBy(desc(ticketReminders.queuedAt)),
        db.select().from(gifts).where(sql`${gifts.status} <> 'unpaid' and (${gifts.buyerUserId} = ${userId} or ${gifts.redeemedBy} = ${userId})`).orderBy(desc(gifts.createdAt)),
      ]);
      return {
        exportedAt: now().toISOString(),
        profile: {
          firstName: user.firstName,
          lastName: user.lastName,
          emailAddress: user.email,
          newsletterAtSignUp: user.emailOptIn,
          termsAcceptedAt: user.termsAcceptedAt?.toISOString() ?? null,
          ticketValidThrough: user.validThrough,
          ticketReminders: user.reminderEmails,
          createdAt: user.createdAt.toISOString(),
        },
        payments: paid.map((p) => ({
          paidAt: p.createdAt.toISOString(),
          amountCents: p.amountCents,
          currency: p.currency,
          status: p.status,
          refundedAt: p.refundedAt?.toISOString() ?? null,
          cardBrand: p.cardBrand,
          cardLast4: p.cardLast4,
          daysGranted: p.daysGranted,
          ticketValidThroughAfter: p.validThroughAfter,
          receiptEmail: p.receiptEmail,
          reference: p.providerPaymentId,
        })),
        subscriptions: subs.map((s) => ({
          emailAddress: s.email,
          firstName: s.firstName,
          lastName: s.lastName,
          consent: s.consent,
          consentAt: s.consentAt?.toISOString() ?? null,
          source: s.source,
          createdAt: s.createdAt.toISOString(),
          updatedAt: s.updatedAt.toISOString(),
        })),
        contactMessages: messages.map((m) => ({ ...m, createdAt: m.createdAt.toISOString() })),
        /** Expiry reminders sent (decision 017, section 5): the ticket's last day and how many days before it. */
        ticketRemindersSent: reminders.map((r) => ({ ticketLastDay: r.lastDay, daysBefore: r.offsetDays, queuedAt: r.queuedAt.toISOString() })),
        gifts: giftRows.map((g) => ({
          role: g.buyerUserId === userId ? "bought" : "redeemed",
          from: { firstName: g.buyerFirstName, lastName: g.buyerLastName, emailAddress: g.buyerEmail },
          to: { firstName: g.recipientFirstName, lastName: g.recipientLastName, emailAddress: g.recipientEmail },
          message: g.message,
          deliverOn: g.deliverOn,
          status: g.status,
          amountCents: g.amountCents,
          currency: g.currency,
          cardBrand: g.buyerUserId === userId ? g.cardBrand : null,
          cardLast4: g.buyerUserId === userId ? g.cardLast4 : null,
          paidAt: g.paidAt?.toISOString() ?? null,
          deliveredAt: g.deliveredAt?.toISOString() ?? null,
          redeemedAt: g.redeemedAt?.toISOString() ?? null,
          refundedAt: g.refundedAt?.toISOString() ?? null,
        })),
      };
    },

    /** Deletes the account after checking its password again. */
    async deleteAccount(userId: string, password: string): Promise<DeleteOutcome> {
      const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
      if (!user) return "no_account";
      if (!(await verifyPassword(user.passwordHash, password))) return "wrong_password";
      if (user.role !== "member") return "staff";
      const email = lower(user.email);
      await transactionRetrying(db, async (tx) => {
        // Payments stay for the books, without anything that points at the person.
        await tx.update(payments).set({ userId: null, receiptEmail: "", cardLast4: null }).where(eq(payments.userId, userId));
        await tx.update(gifts).set({ buyerUserId: null, buyerFirstName: "A friend", buyerLastName: "", buyerEmail: "", cardLast4: null }).where(eq(gifts.buyerUserId, userId));
        await tx
          .update(paymentIncidents)
          .set({ details: sql`${paymentIncidents.details} - 'receiptEmail'` })
          .where(sql`${paymentIncidents.details}->>'userId' = ${userId}`);
        const removed = await tx.delete(subscribers).where(eq(subscribers.email, email)).returning({ consent: subscribers.consent });
        if (removed.some((s) => s.consent) || user.emailOptIn) {
          await enqueue(tx, { kind: "mailchimp", payload: { email, firstName: "", lastName: "", consent: false, unsubscribe: true } }, now());
        }
        // Sessions, reset and email-change links go with the row (ON DELETE CASCADE).
        await tx.delete(users).where(and(eq(users.id, userId), eq(users.role, "member")));
      });
      onEnqueued?.();
      await accessSettled?.();
      return "deleted";
    },
  };
}

