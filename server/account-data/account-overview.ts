/**
 * What the account page shows of the signed-in person: name, email, ticket, the
 * payments with their receipts, and the newsletter preference. Reads only the account's own
 * rows: a receipt is looked up by payment id *and* account, so another account's id is 404.
 */
import { and, desc, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { payments, subscribers, users } from "../db/schema";
import { isUuid } from "../../app/shared/ids";

export interface AccountPayment {
  id: string;
  amountCents: number;
  currency: string;
  status: "succeeded" | "refunded";
  cardBrand: string | null;
  cardLast4: string | null;
  daysGranted: number;
  /** The ticket's last day after this payment (YYYY-MM-DD, museum calendar). */
  validThroughAfter: string;
  /** ISO timestamp of the payment. */
  paidAt: string;
  refundedAt: string | null;
  reference: string;
}

export interface AccountOverview {
  firstName: string;
  lastName: string;
  emailAddress: string;
  validThrough: string | null;
  newsletter: boolean;
  /** Whether the ticket's expiry reminders are sent. */
  reminders: boolean;
  payments: AccountPayment[];
}

type PaymentRow = typeof payments.$inferSelect;

function paymentView(p: PaymentRow): AccountPayment {
  return {
    id: p.id,
    amountCents: p.amountCents,
    currency: p.currency,
    status: p.status,
    cardBrand: p.cardBrand,
    cardLast4: p.cardLast4,
    daysGranted: p.daysGranted,
    validThroughAfter: p.validThroughAfter,
    paidAt: p.createdAt.toISOString(),
    refundedAt: p.refundedAt ? p.refundedAt.toISOString() : null,
    reference: p.providerPaymentId,
  };
}

export function createAccountData({ db }: { db: Database }) {
  return {
    /** The account page's data; null when the account no longer exists. */
    async overview(userId: string): Promise<AccountOverview | null> {
      const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
      if (!user) return null;
      const [rows, [sub]] = await Promise.all([
        db.select().from(payments).where(eq(payments.userId, userId)).orderBy(desc(payments.createdAt)),
        db
          .select({ consent: subscribers.consent })
          .from(subscribers)
          .where(eq(subscribers.email, user.email.trim().toLowerCase()))
          .limit(1),
      ]);
      return {
        firstName: user.firstName,
        lastName: user.lastName,
        emailAddress: user.email,
        validThrough: user.validThrough,
        newsletter: sub?.consent === true,
        reminders: user.reminderEmails,
        payments: rows.map(paymentView),
      };
    },

    /** One payment of this account (its receipt); null for a malformed id or anyone else's payment. */
    async receipt(userId: string, paymentId: string): Promise<(AccountPayment & { name: string; receiptEmail: string }) | null> {
      if (!isUuid(paymentId)) return null;
      const [row] = await db
        .select({ payment: payments, firstName: users.firstName, lastName: users.lastName })
        .from(payments)
        .innerJoin(users, eq(users.id, payments.userId))
        .where(and(eq(payments.id, paymentId), eq(payments.userId, userId)))
        .limit(1);
      if (!row) return null;
      return { ...paymentView(row.payment), name: `${row.firstName} ${row.lastName}`, receiptEmail: row.payment.receiptEmail };
    },
  };
}

