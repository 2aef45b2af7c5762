/**
 * The Overview's "How the museum is doing" (decision 060): the period (a link each, so a view
 * can be shared), the figures, two charts with their tables, the most viewed records, the
 * searches that found nothing and the steps to a paid ticket, and the figures as CSV.
 */
import { Link } from "react-router";
import { OverviewChart } from "./OverviewChart";
import { OVERVIEW_PERIODS, PERIOD_LABELS, type OverviewFigures as Figures, type ViewedRecord } from "~/shared/overview";

const link = "font-semibold text-blue-800 underline";
const cell = "border-b border-stone-200 px-2 py-1 text-left";
const num = "border-b border-stone-200 px-2 py-1 text-right tabular-nums";
const dollars = (cents: number) => `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const whole = (n: number) => n.toLocaleString("en-US");
const axisDollars = (cents: number) => `$${Math.round(cents / 100).toLocaleString("en-US")}`;
const plural = (n: number, one: string, many: string) => `${whole(n)} ${n === 1 ? one : many}`;
/** A share as a percentage with one decimal, or a dash when there is nothing to divide by. */
const percent = (part: number, whole: number) => (whole === 0 ? "–" : `${((part / whole) * 100).toFixed(1)}%`);

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="rounded border border-stone-300 bg-white px-3 py-2">
      <dt className="text-sm text-stone-700">{label}</dt>
      <dd className="text-xl font-bold tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** A table of figures: the first column names the row (a day, a week, a step, words), the others are numbers. */
function FigureTable({ caption, columns, rows, wide = false }: { caption?: string; columns: string[]; rows: [string, ...string[]][]; wide?: boolean }) {
  return (
    <table className={`w-full text-sm ${wide ? "" : "max-w-xl"}`}>
      {caption ? <caption className="sr-only">{caption}</caption> : null}
      <thead>
        <tr>
          {columns.map((c, i) => (
            <th key={c} scope="col" className={i === 0 ? cell : num}>
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map(([name, ...values]) => (
          <tr key={name}>
            <th scope="row" className={`${cell} break-all font-normal`}>
              {name}
            </th>
            {values.map((v, i) => (
              <td key={i} className={num}>
                {v}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function MostViewed({ title, records, testId }: { title: string; records: ViewedRecord[]; testId: string }) {
  return (
    <section className="min-w-0" data-testid={testId}>
      <h3 className="mb-1 text-lg font-bold">{title}</h3>
      {records.length === 0 ? (
        <p className="text-sm">No views counted in this period.</p>
      ) : (
        <ol className="list-decimal space-y-1 pl-6 text-sm">
          {records.map((r) => (
            <li key={r.path} className="break-words">
              <a href={r.path} className="text-blue-800 underline">
                {r.name}
              </a>{" "}
              · {plural(r.views, "view", "views")}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

export function OverviewFigures({ figures }: { figures: Figures }) {
  const { business, searches } = figures;
  const searchTotal = searches.found + searches.notFound;
  return (
    <section aria-labelledby="how-we-are-doing" className="mb-8" data-testid="overview-figures">
      <h2 id="how-we-are-doing" className="mb-2 text-xl font-bold">
        How the museum is doing
      </h2>
      <nav aria-label="Period" className="mb-2 flex flex-wrap gap-2">
        {OVERVIEW_PERIODS.map((p) => (
          <Link
            key={p}
            to={`?period=${p}`}
            preventScrollReset
            aria-current={p === figures.period ? "page" : undefined}
            className={`rounded border px-3 py-1 text-sm font-semibold ${p === figures.period ? "border-ink bg-ink text-white" : "border-stone-400 bg-white text-blue-800 underline"}`}
          >
            {PERIOD_LABELS[p]}
          </Link>
        ))}
      </nav>
      <p className="mb-4 text-sm" data-testid="overview-period">
        From {figures.from} to {figures.to} (today included) ·{" "}
        <a href={`/admin/overview/export?period=${figures.period}`} className={link} download>
          Download these figures (CSV)
        </a>
      </p>
      <dl className="mb-6 grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-4">
        <Figure label="Page views" value={whole(figures.totalViews)} testId="figure-views" />
        <Figure label="Searches" value={whole(searchTotal)} testId="figure-searches" />
        <Figure label="Searches with no results" value={whole(searches.notFound)} testId="figure-searches-not-found" />
        {business ? (
          <>
            <Figure label="Tickets sold" value={`${whole(business.salesPerWeek.reduce((a, w) => a + w.tickets, 0))} · ${dollars(business.salesPerWeek.reduce((a, w) => a + w.ticketCents, 0))}`} testId="figure-tickets" />
            <Figure label="Refunds" value={`${whole(business.salesPerWeek.reduce((a, w) => a + w.refunds, 0))} · ${dollars(business.salesPerWeek.reduce((a, w) => a + w.refundCents, 0))}`} testId="figure-refunds" />
            <Figure label="Gift tickets bought" value={`${whole(business.gifts.bought)} · ${dollars(business.gifts.boughtCents)}`} testId="figure-gifts-bought" />
            <Figure label="Gift tickets redeemed" value={whole(business.gifts.redeemed)} testId="figure-gifts-redeemed" />
            <Figure label="Members with a valid ticket" value={whole(business.members.active)} testId="figure-members-active" />
            <Figure label="Tickets ending within 30 days" value={whole(business.members.expiringIn30Days)} testId="figure-members-expiring" />
            <Figure label="Members whose ticket has ended" value={whole(business.members.lapsed)} testId="figure-members-lapsed" />
            <Figure label="Admission page to paid ticket" value={percent(business.funnel.paid, business.funnel.admissionViews)} testId="figure-conversion" />
          </>
        ) : null}
      </dl>

      <OverviewChart
        title="Page views per day"
        testId="chart-views"
        kind="line"
        days={figures.viewsPerDay.map((d) => d.day)}
        series={[{ label: "Page views", values: figures.viewsPerDay.map((d) => d.views), color: "#101820" }]}
        format={whole}
        table={<FigureTable wide caption={`Page views per day, ${figures.from} to ${figures.to}`} columns={["Day", "Page views"]} rows={figures.viewsPerDay.map((d) => [d.day, whole(d.views)])} />}
      />

      {business ? (
        <OverviewChart
          title="Sales and refunds per week"
          testId="chart-sales"
          kind="bars"
          days={business.salesPerWeek.map((w) => w.week)}
          series={[
            { label: "Sales (tickets and gifts)", values: business.salesPerWeek.map((w) => w.ticketCents + w.giftCents), color: "#b8860b" },
            { label: "Refunds", values: business.salesPerWeek.map((w) => w.refundCents), color: "#b91c1c" },
          ]}
          format={axisDollars}
          table={
            <FigureTable
              wide
              caption={`Sales and refunds per week, ${figures.from} to ${figures.to}`}
              columns={["Week from", "Tickets", "Ticket sales", "Gift tickets", "Gift sales", "Refunds", "Refunded"]}
              rows={business.salesPerWeek.map((w) => [w.week, whole(w.tickets), dollars(w.ticketCents), whole(w.gifts), dollars(w.giftCents), whole(w.refunds), dollars(w.refundCents)])}
            />
          }
        />
      ) : null}

      {business ? (
        <section className="mb-8" data-testid="overview-funnel">
          <h3 className="mb-1 text-lg font-bold">From the admission page to a paid ticket</h3>
          <FigureTable
            columns={["Step", "Count", "Of admission page views"]}
            rows={(
              [
                ["Admission page viewed", business.funnel.admissionViews],
                ["Payment page viewed", business.funnel.paymentViews],
                ["Ticket paid", business.funnel.paid],
              ] as const
            ).map(([step, n]) => [step, whole(n), percent(n, business.funnel.admissionViews)])}
          />
        </section>
      ) : null}

      <div className="mb-8 grid gap-6 md:grid-cols-3">
        <MostViewed title="Most viewed exhibits" records={figures.mostViewed.exhibits} testId="most-viewed-exhibits" />
        <MostViewed title="Most viewed enshrinees" records={figures.mostViewed.enshrinees} testId="most-viewed-enshrinees" />
        <MostViewed title="Most viewed teams" records={figures.mostViewed.teams} testId="most-viewed-teams" />
      </div>

      <section className="mb-8" data-testid="searches-not-found">
        <h3 className="mb-1 text-lg font-bold">Searches with no results</h3>
        <p className="mb-2 text-sm">
          {plural(searches.found, "search", "searches")} found something, {plural(searches.notFound, "search", "searches")} found nothing ({percent(searches.notFound, searchTotal)}).
        </p>
        {searches.notFoundQueries.length ? (
          <FigureTable columns={["Words searched", "Searches"]} rows={searches.notFoundQueries.map((q) => [q.query, whole(q.searches)])} />
        ) : null}
      </section>
    </section>
  );
}
