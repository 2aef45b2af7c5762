/**
 * The console's payments list (decision 062): every ticket payment (a first ticket or a
 * renewal) and every paid gift ticket, with its refund, as one ledger read from the payments
 * and gifts tables. Filtered by a period of museum calendar days (a row belongs to it when it
 * was paid or refunded in it), kind, status and a search by email (beginning) or payment id;
 * newest activity first, paged; the period's totals (payments, refunds, net) over the same
 * filtered rows; and the rows in batches for the CSV export, in Stripe's payments export's
 * columns. Admins only (personal data), as the Overview's payments line. A payment that bought
 * nothing (a payment incident: another amount or currency than the ticket's, an account or a
 * gift draft that no longer exists) is listed too, as "unmatched" until it is refunded, so staff
 * see the money they hold and refund it; its amount counts in the totals when it is in the
 * ticket's currency.
 */
import { sql, type SQL } from "drizzle-orm";
import { addDays, calendarDateIn, startOfDayIn } from "../../app/shared/calendar";
import type { Database } from "../db/client";
import { queryRows } from "../db/client";
import type { GiftState } from "../gifts/gift-service";
import type { PaymentIncidentKind } from "../membership/membership-service";
import { TICKET_CURRENCY } from "../membership/ticket";

export const PAYMENT_KINDS = ["ticket", "renewal", "gift"] as const;
export type PaymentKind = (typeof PAYMENT_KINDS)[number];
/**
 * A row's status: paid, refunded, or unmatched (paid but bought nothing: a payment incident not
 * refunded yet). No failed payments are kept (a declined card leaves no row).
 */
export const PAYMENT_STATUSES = ["paid", "refunded", "unmatched"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export interface PaymentFilter {
  /** First and last museum calendar day of the period (YYYY-MM-DD), both included. */
  from: string;
  to: string;
  kind?: PaymentKind;
  status?: PaymentStatus;
  /** An email's beginning (the member's, the receipt's, a gift's buyer or recipient) or a payment id. */
  q?: string;
}

export interface PaymentRow {
  /** "payment" (payments table), "gift" (gifts table) or "incident" (payment_incidents), and that row's id. */
  source: "payment" | "gift" | "incident";
  id: string;
  kind: PaymentKind;
  provider: "test" | "stripe";
  /** The provider's payment id (Stripe's PaymentIntent id): the row's id in Stripe's dashboard. */
  providerPaymentId: string;
  amountCents: number;
  currency: string;
  status: PaymentStatus;
  paidAt: Date;
  refundedAt: Date | null;
  /** The member's account email (a ticket) or the buyer's (a gift); null for a deleted account. */
  email: string | null;
  /** The receipt's address (what Stripe holds as the customer's email). */
  receiptEmail: string | null;
  name: string | null;
  /** The member's (ticket) or signed-in buyer's (gift) account, for a link; null when deleted or none. */
  userId: string | null;
  cardBrand: string | null;
  cardLast4: string | null;
  daysGranted: number;
  /** Gifts only: the recipient and the gift's state (sent, redeemed, revoked...). */
  recipient: string | null;
  giftState: GiftState | null;
  /** An unmatched payment's reason (why it bought nothing); null for the others. */
  incident: PaymentIncidentKind | null;
}

export interface PaymentTotals {
  payments: { count: number; cents: number };
  refunds: { count: number; cents: number };
  netCents: number;
}

export interface PaymentsListDeps {
  db: Database;
  timeZone: string;
  now?: () => Date;
  /** The gift service's state of a gift (decision 018): one definition of sent, expired, revoked. */
  giftStateOf: (g: { status: "unpaid" | "paid" | "redeemed" | "refunded"; deliveredAt: Date | null; tokenExpiresAt: Date | null; redeemedAt: Date | null }) => GiftState;
}

interface LedgerRow {
  source: "payment" | "gift" | "incident";
  id: string;
  kind: PaymentKind;
  provider: "test" | "stripe";
  provider_payment_id: string;
  amount_cents: number;
  currency: string;
  status: PaymentStatus;
  paid_at: Date | string;
  refunded_at: Date | string | null;
  email: string | null;
  receipt_email: string | null;
  name: string | null;
  user_id: string | null;
  card_brand: string | null;
  card_last4: string | null;
  days_granted: number;
  recipient: string | null;
  gift_status: "unpaid" | "paid" | "redeemed" | "refunded" | null;
  delivered_at: Date | string | null;
  token_expires_at: Date | string | null;
  redeemed_at: Date | string | null;
  incident: PaymentIncidentKind | null;
}

const asDate = (v: Date | string | null): Date | null => (v === null ? null : v instanceof Date ? v : new Date(v));
const prefix = (q: string) => `${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function createPaymentsList({ db, timeZone, now = () => new Date(), giftStateOf }: PaymentsListDeps) {
  /**
   * One row per payment taken: ticket payments (a renewal when the account had paid before or
   * the payment extended a ticket still running that day) and paid gifts (unpaid drafts are
   * abandoned checkouts, not payments).
   */
  const ledger = sql`(
    select 'payment' as source, p.id::text as id,
      case when exists (select 1 from payments e where e.user_id = p.user_id and e.created_at < p.created_at)
        or (p.valid_through_after - p.days_granted) > (p.created_at at time zone ${timeZone})::date then 'renewal' else 'ticket' end as kind,
      p.provider, p.provider_payment_id, p.amount_cents, p.currency,
      case when p.status = 'refunded' then 'refunded' else 'paid' end as status,
      p.created_at as paid_at, p.refunded_at, u.email, nullif(p.receipt_email, '') as receipt_email,
      case when u.id is null then null else u.first_name || ' ' || u.last_name end as name, p.user_id,
      p.card_brand, p.card_last4, p.days_granted,
      null::text as recipient, null::text as recipient_email, null::text as gift_status, null::timestamptz as delivered_at, null::timestamptz as token_expires_at, null::timestamptz as redeemed_at,
      null::text as incident
    from payments p left join users u on u.id = p.user_id
    union all
    select 'gift', g.id::text, 'gift', g.provider, g.provider_payment_id, g.amount_cents, g.currency,
      case when g.status = 'refunded' then 'refunded' else 'paid' end,
      g.paid_at, g.refunded_at, g.buyer_email, g.buyer_email, g.buyer_first_name || ' ' || g.buyer_last_name, g.buyer_user_id,
      g.card_brand, g.card_last4, g.days_granted,
      g.recipient_first_name || ' ' || g.recipient_last_name || ' <' || g.recipient_email || '>', g.recipient_email, g.status, g.delivered_at, g.token_expires_at, g.redeemed_at,
      null
    from gifts g where g.status <> 'unpaid' and g.paid_at is not null and g.provider_payment_id is not null
    union all
    select 'incident', i.id::text, case when i.kind = 'unknown_gift' then 'gift' else 'ticket' end, i.provider, i.provider_payment_id,
      coalesce((i.details->>'amountCents')::integer, 0), coalesce(i.details->>'currency', ${TICKET_CURRENCY}),
      case when i.resolved_at is not null then 'refunded' else 'unmatched' end,
      i.created_at, i.resolved_at, u.email, nullif(i.details->>'receiptEmail', ''),
      case when u.id is null then null else u.first_name || ' ' || u.last_name end, u.id,
      null, null, 0,
      null, null, null, null, null, null,
      i.kind
    from payment_incidents i left join users u on u.id::text = i.details->>'userId'
  ) as ledger`;

  /** The period's bounds as instants: from the first day's museum midnight to the day after the last one's. */
  function bounds(f: Pick<PaymentFilter, "from" | "to">) {
    return { start: startOfDayIn(f.from, timeZone), end: startOfDayIn(addDays(f.to, 1), timeZone) };
  }

  function where(f: PaymentFilter): SQL {
    const { start, end } = bounds(f);
    const conditions: SQL[] = [sql`((paid_at >= ${start} and paid_at < ${end}) or (refunded_at >= ${start} and refunded_at < ${end}))`];
    if (f.kind) conditions.push(sql`kind = ${f.kind}`);
    if (f.status) conditions.push(sql`status = ${f.status}`);
    const q = f.q?.trim();
    if (q) {
      const p = prefix(q);
      conditions.push(sql`(lower(coalesce(email, '')) like ${p} or lower(coalesce(receipt_email, '')) like ${p} or lower(coalesce(recipient_email, '')) like ${p} or lower(provider_payment_id) like ${p} or id = ${q.toLowerCase()})`);
    }
    return sql.join(conditions, sql` and `);
  }

  function toRow(r: LedgerRow): PaymentRow {
    return {
      source: r.source,
      id: r.id,
      kind: r.kind,
      provider: r.provider,
      providerPaymentId: r.provider_payment_id,
      amountCents: Number(r.amount_cents),
      currency: r.currency,
      status: r.status,
      paidAt: asDate(r.paid_at)!,
      refundedAt: asDate(r.refunded_at),
      email: r.email,
      receiptEmail: r.receipt_email,
      name: r.name,
      userId: r.user_id,
      cardBrand: r.card_brand,
      cardLast4: r.card_last4,
      daysGranted: Number(r.days_granted),
      recipient: r.recipient,
      giftState: r.gift_status ? giftStateOf({ status: r.gift_status, deliveredAt: asDate(r.delivered_at), tokenExpiresAt: asDate(r.token_expires_at), redeemedAt: asDate(r.redeemed_at) }) : null,
      incident: r.incident,
    };
  }

  /** Newest activity first (a refund counts as the row's latest), then by id for a stable order. */
  const order = sql`coalesce(refunded_at, paid_at) desc, id desc`;

  return {
    /** The museum's calendar day today (presets count back from it). */
    today: () => calendarDateIn(timeZone, now()),

    async list(f: PaymentFilter & { page: number; pageSize: number }): Promise<{ rows: PaymentRow[]; total: number }> {
      const condition = where(f);
      const [rows, [{ total }]] = await Promise.all([
        queryRows<LedgerRow>(db, sql`select * from ${ledger} where ${condition} order by ${order} limit ${f.pageSize} offset ${(f.page - 1) * f.pageSize}`),
        queryRows<{ total: number | string }>(db, sql`select count(*) as total from ${ledger} where ${condition}`),
      ]);
      return { rows: rows.map(toRow), total: Number(total) };
    },

    /**
     * The filtered rows' totals: payments made in the period (how many, how much), refunds given
     * in it, and the net (payments less refunds), in cents. A payment refunded in the period but
     * made before it counts as a refund only; unmatched payments count as payments (the museum
     * holds the money until it refunds them).
     */
    async totals(f: PaymentFilter): Promise<PaymentTotals> {
      const { start, end } = bounds(f);
      // Money in the ticket's currency only: an unmatched payment in another one is listed, not added up.
      const paidIn = sql`paid_at >= ${start} and paid_at < ${end} and lower(currency) = ${TICKET_CURRENCY}`;
      const refundedIn = sql`status = 'refunded' and refunded_at >= ${start} and refunded_at < ${end} and lower(currency) = ${TICKET_CURRENCY}`;
      const [t] = await queryRows<{ paid_n: number | string; paid_cents: number | string; refund_n: number | string; refund_cents: number | string }>(
        db,
        sql`select count(*) filter (where ${paidIn}) as paid_n, coalesce(sum(amount_cents) filter (where ${paidIn}), 0) as paid_cents,
          count(*) filter (where ${refundedIn}) as refund_n, coalesce(sum(amount_cents) filter (where ${refundedIn}), 0) as refund_cents
          from ${ledger} where ${where(f)}`,
      );
      const payments = { count: Number(t.paid_n), cents: Number(t.paid_cents) };
      const refunds = { count: Number(t.refund_n), cents: Number(t.refund_cents) };
      return { payments, refunds, netCents: payments.cents - refunds.cents };
    },

    /** The filtered rows in the list's order, `size` at a time, for a streamed CSV export. */
    async *batches(f: PaymentFilter, size = 1000): AsyncGenerator<PaymentRow[]> {
      const condition = where(f);
      for (let offset = 0; ; offset += size) {
        const rows = await queryRows<LedgerRow>(db, sql`select * from ${ledger} where ${condition} order by ${order} limit ${size} offset ${offset}`);
        if (rows.length > 0) yield rows.map(toRow);
        if (rows.length < size) return;
      }
    },
  };
}

export type PaymentsList = ReturnType<typeof createPaymentsList>;
