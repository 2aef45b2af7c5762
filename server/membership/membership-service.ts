/**
 * Granting and taking back tickets. A payment grants access exactly once: the payments row is
 * keyed by the provider's payment id, and the grant, the row and the receipt email commit in
 * one transaction with the account row locked, whatever retries, double clicks, replayed
 * webhooks or parallel requests arrive.
 */
import { eq, sql } from "drizzle-orm";
import { calendarDateIn } from "../../app/lib/access";
import { formatPrice } from "../../app/lib/money";
import type { Database } from "../db/client";
import { queryRows } from "../db/client";
import { payments, users } from "../db/schema";
import { enqueue } from "../outbox/outbox";
import { addDays, ticketValidThrough } from "./ticket";

export interface GrantRequest {
  userId: string;
  provider: "test" | "stripe";
  providerPaymentId: string;
  amountCents: number;
  currency: string;
  cardBrand: string | null;
  cardLast4: string | null;
  receiptEmail: string;
}

export interface MembershipDeps {
  db: Database;
  ticketDays: number;
  timeZone: string;
  publicUrl: string;
  now?: () => Date;
  onEnqueued?: () => void;
}

export function createMembership({ db, ticketDays, timeZone, publicUrl, now = () => new Date(), onEnqueued }: MembershipDeps) {
  const today = () => calendarDateIn(timeZone, now());

  return {
    /** Grants the ticket for this payment unless it was granted already. */
    async grantTicket(g: GrantRequest): Promise<{ granted: boolean; validThrough: string | null }> {
      const result = await db.transaction(async (tx) => {
        const [user] = await queryRows<{ id: string; first_name: string; valid_through: string | null }>(
          tx as unknown as Database,
          sql`select id, first_name, valid_through::text as valid_through from ${users} where id = ${g.userId} for update`,
        );
        if (!user) throw new Error(`payment ${g.providerPaymentId} names an unknown account`);
        const validThrough = ticketValidThrough(user.valid_through, today(), ticketDays);
        const inserted = await tx
          .insert(payments)
          .values({
            userId: g.userId,
            provider: g.provider,
            providerPaymentId: g.providerPaymentId,
            amountCents: g.amountCents,
            currency: g.currency,
            status: "succeeded",
            cardBrand: g.cardBrand,
            cardLast4: g.cardLast4,
            daysGranted: ticketDays,
            validThroughAfter: validThrough,
            receiptEmail: g.receiptEmail,
          })
          .onConflictDoNothing({ target: payments.providerPaymentId })
          .returning({ id: payments.id });
        if (inserted.length === 0) return { granted: false, validThrough: user.valid_through };
        await tx.update(users).set({ validThrough }).where(eq(users.id, g.userId));
        await enqueue(tx, {
          kind: "email",
          payload: {
            to: g.receiptEmail,
            purpose: "receipt",
            subject: "Your Pittsburgh Sports Museum ticket receipt",
            text: [
              `Hello ${user.first_name},`,
              "",
              "Thank you for your visit! This is your receipt.",
              "",
              `Museum ticket (${ticketDays} days): ${formatPrice(g.amountCents)} ${g.currency.toUpperCase()}`,
              g.cardLast4 ? `Paid with ${g.cardBrand ?? "card"} ending in ${g.cardLast4}` : "",
              `Payment reference: ${g.providerPaymentId}`,
              `Your access is valid through ${validThrough}.`,
              "",
              `Enjoy the museum: ${publicUrl}/`,
              "",
              "Pittsburgh Sports Museum & Hall of Fame",
            ]
              .filter((l) => l !== null)
              .join("\n"),
          },
        }, now());
        return { granted: true, validThrough };
      });
      if (result.granted) onEnqueued?.();
      return result;
    },

    /** A refund takes the payment's days back (once). */
    async revokeTicket(providerPaymentId: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [payment] = await tx
          .update(payments)
          .set({ status: "refunded", refundedAt: now() })
          .where(sql`${payments.providerPaymentId} = ${providerPaymentId} and ${payments.status} = 'succeeded'`)
          .returning({ userId: payments.userId, days: payments.daysGranted });
        if (!payment) return false;
        const [user] = await queryRows<{ valid_through: string | null }>(
          tx as unknown as Database,
          sql`select valid_through::text as valid_through from ${users} where id = ${payment.userId} for update`,
        );
        if (user?.valid_through) {
          await tx.update(users).set({ validThrough: addDays(user.valid_through, -payment.days) }).where(eq(users.id, payment.userId));
        }
        return true;
      });
    },
  };
}

export type Membership = ReturnType<typeof createMembership>;
