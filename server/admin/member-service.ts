/**
 * Members as admins see them (decision 015): search by name or email (prefix, indexed), filter
 * by ticket state, a member's payments and complimentary tickets, password reset links,
 * complimentary tickets with a reason, refunds, and the filtered list as CSV. Every change runs
 * in one transaction with its audit row.
 *
 * A refund goes to Stripe first in Stripe mode (the SDK, one idempotency key per payment), then
 * takes back exactly the days the payment gave: the days it added, and the purchase day itself
 * when the payment started a ticket rather than extending one. The webhook's `charge.refunded`
 * that follows finds the payment refunded already and does nothing.
 */
import { and, asc, count, desc, eq, gt, gte, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type Stripe from "stripe";
import { calendarDateIn } from "../../app/shared/access";
import type { Database } from "../db/client";
import { queryRows } from "../db/client";
import { complimentaryTickets, payments, users } from "../db/schema";
import { ticketValidThrough, validThroughAfterRefund } from "../membership/ticket";
import { recordAudit, type Actor } from "./audit-log";
import type { Saved } from "./collection-service";

export type MemberState = "valid" | "expired" | "unpaid";

export interface MemberQuery {
  q?: string;
  state?: MemberState;
  sort?: "name" | "email" | "validThrough" | "joined";
  dir?: "asc" | "desc";
  page: number;
  pageSize: number;
}

export interface MemberDeps {
  db: Database;
  timeZone: string;
  stripe: Stripe | null;
  now?: () => Date;
  requestPasswordReset: (email: string) => Promise<void>;
}

const prefix = (q: string) => `${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function createMemberAdmin({ db, timeZone, stripe, now = () => new Date(), requestPasswordReset }: MemberDeps) {
  const today = () => calendarDateIn(timeZone, now());

  function where(query: Pick<MemberQuery, "q" | "state">): SQL {
    const conditions: SQL[] = [eq(users.role, "member")];
    const q = query.q?.trim();
    if (q) {
      const words = q.split(/\s+/);
      const p = prefix(q);
      conditions.push(
        words.length > 1
          ? and(sql`lower(${users.firstName}) like ${prefix(words[0])}`, sql`lower(${users.lastName}) like ${prefix(words.slice(1).join(" "))}`)!
          : or(sql`lower(${users.email}) like ${p}`, sql`lower(${users.firstName}) like ${p}`, sql`lower(${users.lastName}) like ${p}`)!,
      );
    }
    if (query.state === "valid") conditions.push(gte(users.validThrough, today()));
    if (query.state === "expired") conditions.push(lt(users.validThrough, today()));
    if (query.state === "unpaid") conditions.push(isNull(users.validThrough));
    return and(...conditions)!;
  }

  const sorts = { name: users.lastName, email: sql`lower(${users.email})`, validThrough: users.validThrough, joined: users.createdAt } as const;

  const columns = {
    id: users.id,
    firstName: users.firstName,
    lastName: users.lastName,
    email: users.email,
    validThrough: users.validThrough,
    createdAt: users.createdAt,
    emailOptIn: users.emailOptIn,
  };

  function stateOf(validThrough: string | null): MemberState {
    return validThrough === null ? "unpaid" : validThrough >= today() ? "valid" : "expired";
  }

  return {
    stateOf,

    async list(query: MemberQuery) {
      const condition = where(query);
      const column = sorts[query.sort ?? "joined"];
      const [rows, [{ total }]] = await Promise.all([
        db
          .select(columns)
          .from(users)
          .where(condition)
          .orderBy(query.dir === "asc" ? asc(column) : desc(column), asc(users.id))
          .limit(query.pageSize)
          .offset((query.page - 1) * query.pageSize),
        db.select({ total: count() }).from(users).where(condition),
      ]);
      return { rows: rows.map((r) => ({ ...r, state: stateOf(r.validThrough) })), total };
    },

    /** The filtered list in batches of `size`, by id (keyset paging), for a streamed export. */
    async *batches(query: Pick<MemberQuery, "q" | "state">, size = 1000) {
      let after = "";
      for (;;) {
        const rows = await db
          .select(columns)
          .from(users)
          .where(and(where(query), after ? gt(users.id, after) : undefined))
          .orderBy(asc(users.id))
          .limit(size);
        if (rows.length === 0) return;
        yield rows.map((r) => ({ ...r, state: stateOf(r.validThrough) }));
        after = rows[rows.length - 1].id;
        if (rows.length < size) return;
      }
    },

    async get(id: string) {
      const [user] = await db.select(columns).from(users).where(and(eq(users.id, id), eq(users.role, "member"))).limit(1);
      if (!user) return null;
      const [paymentRows, comps] = await Promise.all([
        db.select().from(payments).where(eq(payments.userId, id)).orderBy(desc(payments.createdAt)),
        db.select().from(complimentaryTickets).where(eq(complimentaryTickets.userId, id)).orderBy(desc(complimentaryTickets.createdAt)),
      ]);
      return { ...user, state: stateOf(user.validThrough), payments: paymentRows, complimentary: comps };
    },

    /** Sends the member a password reset link (the site's own reset request, through the outbox). */
    async sendPasswordReset(actor: Actor, id: string): Promise<Saved> {
      const [user] = await db.select({ email: users.email }).from(users).where(and(eq(users.id, id), eq(users.role, "member"))).limit(1);
      if (!user) return { ok: false, message: "No such member." };
      await requestPasswordReset(user.email);
      await recordAudit(db, actor, { action: "member.password-reset", entityType: "member", entityId: id, summary: `Sent a password reset link to ${user.email}` }, now());
      return { ok: true, id, message: `A password reset link is on its way to ${user.email}.` };
    },

    /** A complimentary ticket: `days` added as a purchase would, with the reason kept. */
    grantComplimentary(actor: Actor, id: string, days: number, reason: string): Promise<Saved> {
      return db.transaction(async (tx) => {
        const [before] = await queryRows<{ id: string; email: string; valid_through: string | null }>(
          tx as unknown as Database,
          sql`select id, email, valid_through::text as valid_through from ${users} where id = ${id} and role = 'member' for update`,
        );
        if (!before) return { ok: false, message: "No such member." };
        const validThrough = ticketValidThrough(before.valid_through, today(), days);
        await tx.update(users).set({ validThrough }).where(eq(users.id, id));
        await tx.insert(complimentaryTickets).values({ userId: id, days, reason, grantedBy: actor.email, validThroughAfter: validThrough, createdAt: now() });
        await recordAudit(
          tx,
          actor,
          { action: "member.complimentary", entityType: "member", entityId: id, summary: `Complimentary ticket of ${days} days for ${before.email}: ${reason}`, before: { validThrough: before.valid_through }, after: { validThrough, days, reason } },
          now(),
        );
        return { ok: true, id, message: `${before.email} is a member through ${validThrough}.` };
      });
    },

    /**
     * Refunds a payment: Stripe's refund in Stripe mode, then the payment marked refunded and
     * exactly its days taken back, with the audit row, in one transaction.
     */
    async refund(actor: Actor, paymentId: string): Promise<Saved> {
      const [payment] = await db.select().from(payments).where(eq(payments.id, paymentId)).limit(1);
      if (!payment || !payment.userId) return { ok: false, message: "No such payment." };
      if (payment.status !== "succeeded") return { ok: false, message: "This payment was refunded already." };
      if (payment.provider === "stripe") {
        if (!stripe) return { ok: false, message: "Stripe is not configured on this site: refund this payment in Stripe's dashboard." };
        await stripe.refunds.create({ payment_intent: payment.providerPaymentId }, { idempotencyKey: `museum-refund-${payment.id}` });
      }
      return db.transaction(async (tx) => {
        const [refunded] = await tx
          .update(payments)
          .set({ status: "refunded", refundedAt: now() })
          .where(and(eq(payments.id, paymentId), eq(payments.status, "succeeded")))
          .returning();
        if (!refunded) return { ok: false, message: "This payment was refunded already." };
        const [user] = await queryRows<{ email: string; valid_through: string | null }>(
          tx as unknown as Database,
          sql`select email, valid_through::text as valid_through from ${users} where id = ${payment.userId} for update`,
        );
        let validThrough = user?.valid_through ?? null;
        if (validThrough) {
          validThrough = validThroughAfterRefund(validThrough, { ...refunded, grantDay: calendarDateIn(timeZone, refunded.createdAt) });
          await tx.update(users).set({ validThrough }).where(eq(users.id, payment.userId!));
        }
        await recordAudit(
          tx,
          actor,
          {
            action: "payment.refund",
            entityType: "payment",
            entityId: paymentId,
            summary: `Refunded ${(refunded.amountCents / 100).toFixed(2)} ${refunded.currency.toUpperCase()} to ${user?.email ?? "a deleted account"} (${refunded.daysGranted} days taken back)`,
            before: { payment: { ...payment }, validThrough: user?.valid_through ?? null },
            after: { payment: refunded, validThrough },
          },
          now(),
        );
        return { ok: true, id: paymentId, message: `Refunded. ${user?.email ?? "The account"} is now valid through ${validThrough ?? "never"}.` };
      });
    },
  };
}

export type MemberAdmin = ReturnType<typeof createMemberAdmin>;
