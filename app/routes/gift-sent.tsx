/** After paying for a gift ticket: what happens next, and another gift. */
import { Link } from "react-router";
import type { Route } from "./+types/gift-sent";
import { longDate } from "~/shared/ticket-words";
import { pageMeta } from "~/lib/meta";
import { GIFT_MESSAGES } from "~/shared/gift-schemas";
import { isUuid } from "~/shared/ids";

export async function loader({ request, context }: Route.LoaderArgs) {
  const id = new URL(request.url).searchParams.get("gift") ?? "";
  const gift = isUuid(id) ? await context.services.gifts.get(id) : null;
  if (!gift || gift.status === "unpaid") return { paid: null };
  return { paid: { recipient: gift.recipientFirstName, deliverOn: longDate(gift.deliverOn), buyerEmail: gift.buyerEmail } };
}

export function meta() {
  return [...pageMeta("Your gift ticket", "Your gift ticket is on its way."), { name: "robots", content: "noindex" }];
}

export default function GiftSent({ loaderData: { paid } }: Route.ComponentProps) {
  return (
    <section className="mx-auto max-w-xl px-4 py-10">
      <h1 className="font-display text-3xl font-bold uppercase tracking-wide">Your gift ticket</h1>
      {paid ? (
        <div role="status" className="mt-6 rounded border border-green-700 bg-green-50 p-4 text-green-900" data-testid="gift-sent">
          <p className="font-semibold">{GIFT_MESSAGES.paid}</p>
          <p className="mt-2">
            {`We will email ${paid.recipient} a link to redeem it on ${paid.deliverOn}. Your receipt is on its way to ${paid.buyerEmail}.`}
          </p>
        </div>
      ) : (
        <p className="mt-6">This gift could not be found or is not paid yet.</p>
      )}
      <p className="mt-6">
        <Link to="/gift" className="font-semibold text-steel underline hover:text-ink">
          Give another ticket
        </Link>
      </p>
    </section>
  );
}
