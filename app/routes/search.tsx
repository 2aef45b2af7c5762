/**
 * Search the collection: one box for any exhibit, enshrinee or story, with filters
 * for type, team, category, decade and favorite stories, each with its count for the query.
 * A GET form and plain links, so it all works without JavaScript; with it, the filters, sort
 * and pages load without a full reload. Member-only texts are searched, and quoted in a
 * highlighted snippet, for members only (the service decides, server/search/).
 */
import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/search";
import { seesMemberContent } from "~/lib/guards.server";
import { softLoad } from "~/lib/load.server";
import { publicUrlOf, seoMeta } from "~/lib/meta";
import { parseSearchPage } from "~/shared/search-schemas";
import {
  emptySearchAnswer,
  searchHref,
  SEARCH_LIMITS,
  SEARCH_MESSAGES,
  type FacetValue,
  type SearchAnswer,
  type SearchHit,
  type SearchRequest,
} from "~/shared/search";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { request: search, invalid, tooLong } = parseSearchPage(new URL(request.url).searchParams);
  const member = seesMemberContent(context);
  const canonical = `${context.settings.publicUrl}/search`;
  const page = (answer: SearchAnswer, status = 200) => data({ search, answer, invalid, canonical }, { status });
  // Over the host's search limit (server/security/limits.ts): the message, and no search.
  if (context.rateLimited) return page(emptySearchAnswer(search, member, context.rateLimited), 429);
  if (tooLong) return page(emptySearchAnswer(search, member, SEARCH_MESSAGES.tooLong), 400);
  const answer = await softLoad(
    context,
    "search",
    () => context.services.search.search(search, member),
    emptySearchAnswer(search, member, "Search is not available right now. Please try again in a minute."),
  );
  return page(answer, invalid ? 400 : 200);
}

const SORT_LABELS: Record<SearchRequest["sort"], string> = {
  relevance: "Best match",
  year: "Oldest first",
  "year-desc": "Newest first",
};

const FACET_TITLES = {
  type: "Type",
  team: "Team",
  category: "Category",
  decade: "Decade",
  favoriteStory: "Stories",
} as const;

type FacetKey = keyof typeof FACET_TITLES;

function hitMeta(hit: SearchHit): string {
  const parts: string[] = [hit.type === "exhibit" ? "Exhibit" : "Enshrinee"];
  if (hit.teams.length) parts.push(hit.teams.map((t) => t.name).join(", "));
  if (hit.category) parts.push(hit.category.categoryName);
  if (hit.year !== null) parts.push(hit.type === "exhibit" ? String(hit.year) : `from ${hit.year}`);
  return parts.join(" · ");
}

function ResultItem({ hit }: { hit: SearchHit }) {
  return (
    <li className="border-b border-gray-200 py-4" data-testid="search-result">
      <h3 className="text-lg font-semibold">
        <Link to={hit.url} className="text-blue-800 underline underline-offset-2 hover:text-blue-950">
          {hit.title}
        </Link>
        {hit.favoriteStory ? (
          <span className="ml-2 rounded bg-gold px-2 py-0.5 align-middle text-xs font-bold uppercase text-ink">Favorite story</span>
        ) : null}
      </h3>
      <p className="mt-1 text-sm text-gray-700">{hitMeta(hit)}</p>
      {hit.snippet ? (
        <p className="mt-2 text-gray-800" data-testid="search-snippet">
          …
          {hit.snippet.map((run, i) =>
            run.match ? (
              <mark key={i} className="rounded-sm bg-gold/60 px-0.5 text-ink">
                {run.text}
              </mark>
            ) : (
              <span key={i}>{run.text}</span>
            ),
          )}
          …
        </p>
      ) : null}
    </li>
  );
}

function FacetGroup({ name, values, search }: { name: FacetKey; values: FacetValue[]; search: SearchRequest }) {
  if (values.length === 0) return null;
  const selected = search[name] === undefined ? null : String(search[name]);
  return (
    <section className="mt-5" aria-labelledby={`facet-${name}`}>
      <h3 id={`facet-${name}`} className="font-display text-sm font-bold uppercase tracking-wide text-steel">
        {FACET_TITLES[name]}
      </h3>
      <ul className="mt-2 space-y-1">
        {values.map((v) => {
          const on = selected === v.value;
          return (
            <li key={v.value}>
              <Link
                to={searchHref(search, { [name]: on ? undefined : v.value })}
                preventScrollReset
                aria-current={on ? "true" : undefined}
                className={`flex justify-between gap-2 rounded px-2 py-1 hover:bg-gold/20 ${on ? "bg-ink font-semibold text-white hover:bg-ink" : "text-gray-900"}`}
              >
                <span>
                  {on ? <span aria-hidden="true">✓ </span> : null}
                  {v.label}
                  {on ? <span className="sr-only"> (selected; choose to remove this filter)</span> : null}
                </span>
                <span className={on ? "text-gold" : "text-gray-600"}>{v.count}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function Pagination({ search, answer }: { search: SearchRequest; answer: SearchAnswer }) {
  if (answer.pages <= 1) return null;
  const current = Math.min(answer.page, answer.pages);
  const shown = new Set([1, answer.pages, current - 1, current, current + 1].filter((p) => p >= 1 && p <= answer.pages));
  const pages = [...shown].sort((a, b) => a - b);
  const link = "rounded border border-gray-300 px-3 py-1.5 hover:bg-gold/20";
  return (
    <nav aria-label="Result pages" className="mt-6">
      <ul className="flex flex-wrap items-center gap-2">
        {current > 1 ? (
          <li>
            <Link to={searchHref(search, { page: current - 1 })} className={link} rel="prev">
              Previous
            </Link>
          </li>
        ) : null}
        {pages.map((p, i) => (
          <li key={p} className="flex items-center gap-2">
            {i > 0 && p - pages[i - 1] > 1 ? <span aria-hidden="true">…</span> : null}
            <Link
              to={searchHref(search, { page: p })}
              aria-current={p === current ? "page" : undefined}
              aria-label={`Page ${p}`}
              className={p === current ? "rounded border border-ink bg-ink px-3 py-1.5 text-white" : link}
            >
              {p}
            </Link>
          </li>
        ))}
        {current < answer.pages ? (
          <li>
            <Link to={searchHref(search, { page: current + 1 })} className={link} rel="next">
              Next
            </Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}

export default function Search({ loaderData }: Route.ComponentProps) {
  const { search, answer, invalid } = loaderData;
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/search";
  const filtered = (["type", "team", "category", "decade", "favoriteStory"] as const).some((k) => search[k] !== undefined);
  const first = (answer.page - 1) * answer.pageSize + 1;
  const last = Math.min(answer.total, answer.page * answer.pageSize);
  return (
    <article className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="font-display text-4xl font-bold uppercase tracking-wide">Search the Collection</h1>

      <Form method="get" action="/search" role="search" aria-label="Search the collection" className="mt-4">
        <label htmlFor="search-page-q" className="block font-semibold">
          Exhibits, enshrinees and stories
        </label>
        <div className="mt-1 flex max-w-2xl gap-2">
          <input
            id="search-page-q"
            type="search"
            name="q"
            defaultValue={search.q}
            key={search.q}
            autoComplete="off"
            maxLength={SEARCH_LIMITS.maxQueryLength}
            aria-describedby="search-page-tips"
            className="min-w-0 flex-1 rounded border border-gray-400 px-3 py-2 text-lg"
          />
          {(["type", "team", "category", "decade", "favoriteStory"] as const).map((k) =>
            search[k] !== undefined ? <input key={k} type="hidden" name={k} value={String(search[k])} /> : null,
          )}
          {search.sort !== "relevance" ? <input type="hidden" name="sort" value={search.sort} /> : null}
          <button type="submit" className="rounded bg-ink px-5 py-2 font-semibold uppercase text-white hover:bg-steel">
            Search
          </button>
        </div>
        <p id="search-page-tips" className="mt-1 text-sm text-gray-700">
          Put a phrase in "quotes"; write -word to leave a word out. Spelling need not be perfect.
        </p>
      </Form>

      <div aria-live="polite" className="mt-4 space-y-2" data-testid="search-status">
        {invalid ? <p className="text-red-800">{SEARCH_MESSAGES.badFilter}</p> : null}
        {answer.message ? <p className="font-semibold">{answer.message}</p> : null}
        {answer.didYouMean ? (
          <p>
            Did you mean{" "}
            <Link to={searchHref(search, { q: answer.didYouMean })} className="font-semibold text-blue-800 underline" data-testid="did-you-mean">
              {answer.didYouMean}
            </Link>
            ?
          </p>
        ) : null}
      </div>

      {answer.mode !== "none" ? (
        <div className={`mt-6 grid gap-8 md:grid-cols-[15rem_1fr] ${loading ? "opacity-60" : ""}`}>
          {/* On a phone the results come first, with a way down to the filters. */}
          <aside aria-labelledby="filters-heading" data-testid="search-filters" className="order-last md:order-none">
            <h2 id="filters-heading" className="scroll-mt-24 font-display text-xl font-bold uppercase">
              Filters
            </h2>
            {filtered ? (
              <p className="mt-2">
                <Link to={searchHref(search, { type: undefined, team: undefined, category: undefined, decade: undefined, favoriteStory: undefined })} preventScrollReset className="text-blue-800 underline">
                  Clear all filters
                </Link>
              </p>
            ) : null}
            {(Object.keys(FACET_TITLES) as FacetKey[]).map((k) => (
              <FacetGroup key={k} name={k} values={answer.facets[k]} search={search} />
            ))}
          </aside>

          <section aria-labelledby="results-heading">
            {answer.total > 0 ? (
              <p className="mb-2 md:hidden">
                <a href="#filters-heading" className="font-semibold text-blue-800 underline">
                  Filter these results
                </a>
              </p>
            ) : null}
            <h2 id="results-heading" className="font-display text-xl font-bold uppercase" data-testid="results-heading" data-search-total={answer.total}>
              {answer.total === 0
                ? "No results"
                : `${answer.total} ${answer.total === 1 ? "result" : "results"}${answer.pages > 1 && answer.results.length ? ` (${first}–${last})` : ""}`}
            </h2>
            {answer.total > 1 ? (
              <nav aria-label="Sort results" className="mt-2 text-sm">
                <span className="mr-2 text-gray-700">Sort:</span>
                {(Object.keys(SORT_LABELS) as SearchRequest["sort"][]).map((s) => (
                  <Link
                    key={s}
                    to={searchHref(search, { sort: s })}
                    preventScrollReset
                    aria-current={search.sort === s ? "true" : undefined}
                    className={`mr-3 inline-flex min-h-6 items-center ${search.sort === s ? "font-bold text-ink" : "text-blue-800 underline"}`}
                  >
                    {SORT_LABELS[s]}
                  </Link>
                ))}
              </nav>
            ) : null}
            {!answer.memberTexts && answer.total > 0 ? (
              <p className="mt-3 rounded border-l-4 border-gold bg-white px-3 py-2 text-sm">
                {SEARCH_MESSAGES.membersSearchTexts}{" "}
                <Link to="/admission" className="font-semibold text-blue-800 underline">
                  Buy your ticket
                </Link>
              </p>
            ) : null}
            <ol className="mt-2" data-testid="search-results">
              {answer.results.map((hit) => (
                <ResultItem key={hit._id} hit={hit} />
              ))}
            </ol>
            <Pagination search={search} answer={answer} />
          </section>
        </div>
      ) : null}
    </article>
  );
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  const q = loaderData?.search.q;
  return [
    ...seoMeta({
      title: q ? `Search: ${q}` : "Search the Collection",
      description: "Search the museum's exhibits, enshrinees and favorite stories by name, title, team, category and decade.",
      // No canonical link on a noindex page; its share card is the default one.
      publicUrl: publicUrlOf(matches),
    }),
    // Result lists are not pages for search engines.
    { name: "robots", content: "noindex" },
  ];
}
