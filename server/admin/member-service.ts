/**
 * Members as admins see them (decision 015): search by name or email (prefix, indexed), filter
 * by ticket state, a member's payments and complimentary tickets, password reset links,
 * complimentary tickets with a reason, refunds, and the filtered list as CSV. The reads are the
 * console's own; complimentary tickets and refunds are the membership module's
 * (server/membership/membership-service.ts, decision 023), which writes each with its audit row.
 */
import { and, asc, count, desc, eq, gt, gte, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { isTicketValid } from "../../app/shared/access";
import type { Database } from "../db/client";
import { complimentaryTickets, isMemberAccount, payments, users } from "../db/schema";
import type { Membership } from "../membership/membership-service";
import { recordAudit, type Actor, type Saved } from "../audit/audit-trail";

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
  /** Owns complimentary tickets, refunds and the museum's today. */
  membership: Membership;
  now?: () => Date;
  requestPasswordReset: (email: string) => Promise<void>;
}

const prefix = (q: string) => `${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function createMemberAdmin({ db, membership, now = () => new Date(), requestPasswordReset }: MemberDeps) {
  const { today } = membership;

  function where(query: Pick<MemberQuery, "q" | "state">): SQL {
    const conditions: SQL[] = [isMemberAccount()];
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
    /** "member", or the staff role of a member who is also on the staff. */
    role: users.role,
  };

  function stateOf(validThrough: string | null): MemberState {
    return validThrough === null ? "unpaid" : isTicketValid(validThrough, today()) ? "valid" : "expired";
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
      const [user] = await db.select(columns).from(users).where(and(eq(users.id, id), isMemberAccount())).limit(1);
      if (!user) return null;
      const [paymentRows, comps] = await Promise.all([
        db.select().from(payments).where(eq(payments.userId, id)).orderBy(desc(payments.createdAt)),
        db.select().from(complimentaryTickets).where(eq(complimentaryTickets.userId, id)).orderBy(desc(complimentaryTickets.createdAt)),
      ]);
      return { ...user, state: stateOf(user.validThrough), payments: paymentRows, complimentary: comps };
    },

    /** Sends the member a password reset link (the site's own reset request, through the outbox). */
    async sendPasswordReset(actor: Actor, id: string): Promise<Saved> {
      const [user] = await db.select({ email: users.email }).from(users).where(and(eq(users.id, id), isMemberAccount())).limit(1);
      if (!user) return { ok: false, message: "No such member." };
      await requestPasswordReset(user.email);
      await recordAudit(db, actor, { action: "member.password-reset", entityType: "member", entityId: id, summary: `Sent a password reset link to ${user.email}` }, now());
      return { ok: true, id, message: `A password reset link is on its way to ${user.email}.` };
    },

    /** A complimentary ticket (the membership module's grant, audited). */
    grantComplimentary: membership.grantComplimentary,

    /** A refund: at the provider, then the one refund rule (decision 023), audited. */
    refund: membership.refund,
  };
}

