/** The "buy a ticket" banner shown to visitors where members see photos and full texts. */
import { Link, useRouteLoaderData } from "react-router";
import { formatPrice } from "~/shared/money";

interface RootData {
  settings: { ticketPriceCents: number; ticketDays: number };
}

export function TicketBanner({ what = "photos, full exhibit texts and biographies" }: { what?: string }) {
  const root = useRouteLoaderData("root") as RootData | undefined;
  const price = formatPrice(root?.settings.ticketPriceCents ?? 699);
  const days = root?.settings.ticketDays ?? 120;
  return (
    <aside className="my-6 rounded-lg border-2 border-gold bg-ink p-5 text-white" data-testid="ticket-banner">
      <p className="font-display text-xl font-bold uppercase tracking-wide text-gold">Members only</p>
      <p className="mt-2">
        A museum ticket ({price}, valid for {days} days) unlocks {what}.
      </p>
      <p className="mt-4">
        <Link to="/admission" className="inline-block rounded bg-gold px-5 py-2 font-semibold uppercase text-ink hover:bg-gold-dark">
          Buy Your Ticket
        </Link>
      </p>
    </aside>
  );
}
