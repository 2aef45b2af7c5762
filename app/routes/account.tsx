/**
 * The account page: name, email, the ticket in words, the payments with a receipt
 * for each, the newsletter preference, and Logout. For every signed-in account, paid or not;
 * never stored by the page cache (the host sends it `private, no-store`).
 */
import { data, Form, Link, redirect } from "react-router";
import { PasskeySection } from "~/components/PasskeySection";
import { SIGN_IN_MESSAGES } from "~/shared/staff-sign-in-words";
import type { Route } from "./+types/account";
import { longDate, longDateOfInstant, ticketStatusWords } from "~/shared/ticket-words";
import { isTicketValid } from "~/shared/access";
import { RemindersForm } from "~/components/account/RemindersForm";
import { requireAccount } from "~/lib/guards.server";
import { pageMeta } from "~/lib/meta";
import { ACCOUNT_MESSAGES } from "~/shared/messages";
import { formatPrice } from "~/shared/money";
import { GIFT_MESSAGES } from "~/shared/gift-schemas";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireAccount(context, "/login?redirectTo=%2Faccount");
  const overview = await context.services.accountData.overview(viewer.userId);
  if (!overview) throw data(null, { status: 404 });
  const timeZone = context.services.config.MUSEUM_TIME_ZONE;
  const today = context.services.membership.today();
  const valid = isTicketValid(overview.validThrough, today);
  return {
    name: `${overview.firstName} ${overview.lastName}`,
    emailAddress: overview.emailAddress,
    ticket: ticketStatusWords(overview.validThrough, today),
    valid,
    paid: overview.validThrough !== null,
    newsletter: overview.newsletter,
    reminders: overview.reminders,
    remindersWords: overview.reminders ? ACCOUNT_MESSAGES.remindersOn(context.services.config.REMINDER_DAYS) : ACCOUNT_MESSAGES.remindersOff,
    notice: noticeOf(new URL(request.url).searchParams, overview),
    /** Gift tickets this account bought, and what became of them. */
    gifts: (await context.services.gifts.boughtBy(viewer.userId)).map((g) => ({
      id: g.id,
      to: `${g.recipientFirstName} ${g.recipientLastName}`,
      deliverOn: longDate(g.deliverOn),
      state: GIFT_STATE_WORDS[g.state],
    })),
    /** Passkeys: an extra way in (decision 056); the password keeps working. */
    passkeys: (await context.services.passkeys.list(viewer.userId)).map((k) => ({
      id: k.id,
      name: k.name,
      added: longDateOfInstant(k.createdAt.toISOString(), timeZone),
      lastUsed: k.lastUsedAt ? longDateOfInstant(k.lastUsedAt.toISOString(), timeZone) : null,
    })),
    payments: overview.payments.map((p) => ({
      id: p.id,
      date: longDateOfInstant(p.paidAt, timeZone),
      amount: formatPrice(p.amountCents),
      through: longDate(p.validThroughAfter),
      refunded: p.status === "refunded",
    })),
  };
}

/** What the page says after a change made elsewhere sent the person back here. */
function noticeOf(params: URLSearchParams, overview: { emailAddress: string; reminders: boolean }): string | null {
  const changed = params.get("changed");
  // After a confirmed email change (account-email-confirm.tsx).
  if (changed === "email") return ACCOUNT_MESSAGES.emailChanged(overview.emailAddress);
  // After the reminders were turned on or off (account-reminders.tsx).
  if (changed === "reminders") return overview.reminders ? ACCOUNT_MESSAGES.remindersTurnedOn : ACCOUNT_MESSAGES.remindersTurnedOff;
  // After a passkey was removed (this page's action).
  if (changed === "passkey") return SIGN_IN_MESSAGES.passkeyRemoved;
  // After a gift was redeemed (gift-redeem.tsx).
  return params.get("gift") === "redeemed" ? GIFT_MESSAGES.redeemed : null;
}

/** Removes one of the account's passkeys; the page then says so. */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireAccount(context, "/login?redirectTo=%2Faccount");
  if (context.rateLimited) throw data(context.rateLimited, { status: 429 });
  const form = await request.formData();
  const id = form.get("passkeyId");
  if (form.get("intent") !== "passkey-remove" || typeof id !== "string") throw data("Unknown action.", { status: 400 });
  await context.services.passkeys.remove(viewer.userId, { userId: viewer.userId, email: viewer.emailAddress }, id.slice(0, 1024));
  return redirect("/account?changed=passkey");
}

export function meta() {
  return [...pageMeta("Your account", "Your museum account: ticket, payments and receipts."), { name: "robots", content: "noindex" }];
}

const GIFT_STATE_WORDS = {
  unpaid: "not paid",
  scheduled: "paid, to be sent",
  sent: "sent, not redeemed yet",
  redeemed: "redeemed",
  expired: "not redeemed in time",
  revoked: "refunded",
  refunded: "refunded",
} as const;

const SECTION = "mt-8 rounded border border-stone-300 bg-white p-5";
const H2 = "font-display text-xl font-bold uppercase tracking-wide";

export default function Account({ loaderData: a }: Route.ComponentProps) {
  return (
    <section className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="font-display text-3xl font-bold uppercase tracking-wide">Your account</h1>
      {a.notice ? (
        <p role="status" className="mt-4 rounded border border-green-700 bg-green-50 p-3 font-semibold text-green-900" data-testid="account-notice">
          {a.notice}
        </p>
      ) : null}

      <div className={SECTION}>
        <h2 className={H2}>Profile</h2>
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          <dt className="font-semibold">Name</dt>
          <dd data-testid="account-name">{a.name}</dd>
          <dt className="font-semibold">Email</dt>
          <dd data-testid="account-email">{a.emailAddress}</dd>
        </dl>
        <ul className="mt-4 flex flex-wrap gap-x-6 gap-y-2">
          <li>
            <Link to="/account/name" className="font-semibold text-steel underline hover:text-ink">
              Change name
            </Link>
          </li>
          <li>
            <Link to="/account/email" className="font-semibold text-steel underline hover:text-ink">
              Change email address
            </Link>
          </li>
          <li>
            <Link to="/account/password" className="font-semibold text-steel underline hover:text-ink">
              Change password
            </Link>
          </li>
        </ul>
      </div>

      <div className={SECTION}>
        <h2 className={H2}>Ticket</h2>
        <p className="mt-3" data-testid="ticket-status">
          {a.ticket}
        </p>
        <p className="mt-3">
          <Link to="/admission/payment" className="font-semibold text-steel underline hover:text-ink">
            {a.valid ? "Buy another ticket" : a.paid ? "Renew your ticket" : "Buy your ticket"}
          </Link>
        </p>
      </div>

      <div className={SECTION}>
        <h2 className={H2}>Ticket reminders</h2>
        <p className="mt-3" data-testid="reminders-status">
          {a.remindersWords}
        </p>
        <RemindersForm on={a.reminders} />
      </div>

      <div className={SECTION}>
        <h2 className={H2}>Payments</h2>
        {a.payments.length === 0 ? (
          <p className="mt-3">No payments yet.</p>
        ) : (
          <table className="mt-3 w-full text-left" data-testid="payments">
            <thead>
              <tr className="border-b border-stone-300">
                <th scope="col" className="py-2 pr-3">Date</th>
                <th scope="col" className="py-2 pr-3">Amount</th>
                <th scope="col" className="py-2 pr-3">Ticket through</th>
                <th scope="col" className="py-2">
                  <span className="sr-only">Receipt</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {a.payments.map((p) => (
                <tr key={p.id} className="border-b border-stone-200">
                  <td className="py-2 pr-3">{p.date}</td>
                  <td className="py-2 pr-3">
                    {p.amount}
                    {p.refunded ? " (refunded)" : ""}
                  </td>
                  <td className="py-2 pr-3">{p.through}</td>
                  <td className="py-2">
                    <Link to={`/account/receipts/${p.id}`} className="font-semibold text-steel underline hover:text-ink">
                      Receipt<span className="sr-only"> of {p.date}</span>
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>

      <div className={SECTION}>
        <h2 className={H2}>Gift tickets</h2>
        {a.gifts.length === 0 ? (
          <p className="mt-3">You have not given a ticket yet.</p>
        ) : (
          <ul className="mt-3 space-y-1" data-testid="gifts">
            {a.gifts.map((g) => (
              <li key={g.id}>
                {`For ${g.to}, sent on ${g.deliverOn}: `}
                <strong>{g.state}</strong>
              </li>
            ))}
          </ul>
        )}
        <p className="mt-3">
          <Link to="/gift" className="font-semibold text-steel underline hover:text-ink">
            Give a ticket
          </Link>
        </p>
      </div>

      <div className={SECTION}>
        <h2 className={H2}>Newsletter</h2>
        <p className="mt-3" data-testid="newsletter-status">
          {a.newsletter ? "You receive the museum newsletter." : "You do not receive the museum newsletter."}
        </p>
        {a.newsletter ? null : (
          <p className="mt-2">
            <Link to="/subscribe" className="font-semibold text-steel underline hover:text-ink">
              Subscribe to the newsletter
            </Link>
          </p>
        )}
      </div>

      <div className={SECTION}>
        <h2 className={H2}>Passkeys</h2>
        <div className="mt-3">
          <PasskeySection
            passkeys={a.passkeys}
            askPassword
            buttonClass="rounded bg-ink px-5 py-2 font-semibold text-gold hover:bg-steel disabled:opacity-60"
            removeClass="font-semibold text-red-800 underline hover:text-ink"
          />
        </div>
      </div>

      <div className={SECTION}>
        <h2 className={H2}>Your data</h2>
        <ul className="mt-3 space-y-2">
          <li>
            {/* A file download, not a page: a plain link so the browser saves it. */}
            <a href="/account/data" download="museum-account-data.json" className="font-semibold text-steel underline hover:text-ink">
              Download my data
            </a>
          </li>
          <li>
            <Link to="/account/delete" className="font-semibold text-red-800 underline hover:text-ink">
              Delete my account
            </Link>
          </li>
        </ul>
      </div>

      <Form method="post" action="/logout" className="mt-8">
        <button type="submit" className="rounded bg-ink px-6 py-3 font-semibold uppercase tracking-wide text-gold hover:bg-steel">
          Log out
        </button>
      </Form>
    </section>
  );
}
