/**
 * Searching the collection (decision 014), over `search_documents`, which triggers keep
 * in step with the collection (drizzle/0005_search.sql):
 *
 * - Words: PostgreSQL full-text search with `websearch_to_tsquery` (quotes, `-word`, `or`), in the
 *   `museum_search` configuration (English stems, accents removed). Visitors are matched and
 *   ranked on `public_vector` only (titles and names above team and category); members on
 *   `member_vector`, which adds descriptions and biographies, with a highlighted snippet.
 * - No word found: each unknown word is replaced by the most similar public word (a lexicon of
 *   the titles, names, teams and categories, pg_trgm), and the corrected words are searched:
 *   "Did you mean".
 * - Facets: for each filter, the count of each value under the query and the other filters.
 * - Suggestions: titles and names by word beginnings, the same for everyone.
 *
 * Each search is one transaction on one connection that turns sequential scans off for its own
 * statements (LOCAL): a broad query would otherwise read every stored text instead of the index.
 * It turns PostgreSQL's JIT compilation off too: a member's ranking counts, in the planner's
 * estimate, a look-up of the text per hit (made only for few hits), which put a broad search above
 * `jit_above_cost`, and compiling took longer (about 90 ms) than the search.
 */
import { sql, type SQL } from "drizzle-orm";
import { enshrineePath, exhibitPath } from "../../app/shared/exhibit-links";
import {
  HIGHLIGHT_END,
  HIGHLIGHT_START,
  SEARCH_LIMITS,
  SEARCH_MESSAGES,
  cleanQuery,
  emptySearchAnswer,
  type SearchAnswer,
  type SearchFilters,
  type SearchHit,
  type SearchRequest,
  type SearchType,
  type Suggestion,
} from "../../app/shared/search";
import { queryRows, type Database } from "../db/client";
import { visibleAt } from "../catalog/publication";
import { countFacets, type FacetGroup, type FacetLabel } from "./facet-counts";
import { normalizeWord, queryWords, replaceWords } from "./spelling";
import { transactionRetrying } from "../db/retrying";

/** Below this many matches a member's results are ranked on the whole text (reading every text costs ~5 µs each on PGlite). */
export const FULL_TEXT_RANK_LIMIT = 100;
/** A snippet is cut from this many characters of the text, starting this many before the first match. */
const SNIPPET_WINDOW = 420;
const SNIPPET_LEAD = 160;
/** Suggestions are chosen among at most this many candidates, so a two-letter beginning stays cheap. */
const SUGGEST_CANDIDATES = 200;

const TS_CONFIG = sql.raw("'museum_search'");

/** Gating: a visitor's words are looked for in the public words only (of documents named `d`). */
const searchedVector = (member: boolean) => (member ? sql.raw("d.member_vector") : sql.raw("d.public_vector"));

interface ResultRow {
  id: string;
  kind: SearchType;
  title: string;
  altTitle: string;
  teams: { _id: string; name: string }[] | null;
  categoryId: string | null;
  categoryName: string;
  year: number | null;
  favoriteStory: boolean;
  snippet: string | null;
}

interface PipelineRow {
  /** The hits' facet groups and how many hits each has, in step. */
  groups: { ids: number[] | null; counts: number[] | null };
  /** Every team and category: [id, name, order]. */
  teams: [string, string, number][] | null;
  categories: [string, string, number][] | null;
  results: ResultRow[];
}

interface Pipeline {
  hits: number;
  total: number;
  results: ResultRow[];
  facets: SearchAnswer["facets"];
}

/**
 * The filters as conditions on facet groups named `f` (the results page's; the counts apply the
 * same filters in the process, `groupPasses`).
 */
function filterConditions(filters: SearchFilters): SQL {
  const parts: SQL[] = [];
  if (filters.type) parts.push(sql`f.kind = ${filters.type}`);
  if (filters.team) parts.push(sql`${filters.team}::uuid = any(f.team_ids)`);
  if (filters.category) parts.push(sql`f.category_id = ${filters.category}::uuid`);
  if (filters.decade !== undefined) parts.push(sql`f.decade = ${filters.decade}::int`);
  if (filters.favoriteStory !== undefined) parts.push(filters.favoriteStory ? sql`f.favorite_story` : sql`not f.favorite_story`);
  return parts.length ? sql.join(parts, sql` and `) : sql`true`;
}

/**
 * The order of results over rows named `t`, or over a select list's own columns without `t`
 * (ties by id: stable, and no text to compare or carry).
 */
function orderBy(sort: SearchRequest["sort"], t?: string): SQL {
  const r = sql.raw(t ? `${t}.` : "");
  if (sort === "year") return sql`${r}year asc nulls last, ${r}id`;
  if (sort === "year-desc") return sql`${r}year desc nulls last, ${r}id`;
  return sql`${r}score desc, ${r}year asc nulls last, ${r}id`;
}

/** Splits ts_headline's output (marked with the private-use markers) into plain and matched runs. */
export function snippetRuns(marked: string): { text: string; match: boolean }[] {
  const runs: { text: string; match: boolean }[] = [];
  const re = new RegExp(`${HIGHLIGHT_START}([^${HIGHLIGHT_END}]*)${HIGHLIGHT_END}`, "g");
  let at = 0;
  for (const m of marked.matchAll(re)) {
    if (m.index > at) runs.push({ text: marked.slice(at, m.index), match: false });
    if (m[1]) runs.push({ text: m[1], match: true });
    at = m.index + m[0].length;
  }
  if (at < marked.length) runs.push({ text: marked.slice(at), match: false });
  // Paragraph breaks read as spaces in a one-line snippet; a stray marker never reaches a page.
  return runs
    .map((r) => ({ ...r, text: r.text.replace(/[\uE000\uE001]/g, "").replace(/\s+/g, " ") }))
    .filter((r) => r.text.length > 0);
}

function hitFrom(row: ResultRow, member: boolean): SearchHit {
  const teams = row.teams ?? [];
  const hit: SearchHit = {
    _id: row.id,
    type: row.kind,
    title: row.title,
    shortTitle: row.kind === "exhibit" ? row.altTitle : null,
    teams,
    category: row.categoryId ? { _id: row.categoryId, categoryName: row.categoryName } : null,
    year: row.year,
    favoriteStory: row.favoriteStory,
    url:
      row.kind === "exhibit"
        ? exhibitPath({ _id: row.id, title: row.title, team: { _id: teams[0]?._id ?? "" } })
        : enshrineePath({ _id: row.id, fullName: row.title }),
  };
  // Gating: the text a visitor may not read is not searched for them, and no snippet is made.
  if (member && row.snippet) hit.snippet = snippetRuns(row.snippet);
  return hit;
}

export function createSearch(db: Database, now: () => Date = () => new Date()) {
  /** Drafts have no document; a scheduled record's document is found once its time has passed (decision 032). */
  const published = () => visibleAt(sql.raw("d.publish_at"), now());
  // The values of each facet group, read once: a group's values never change (decision 014).
  const facetGroups = new Map<number, FacetGroup>();

  /** Reads the groups this process has not met yet. */
  async function loadFacetGroups(tx: Database, ids: number[]): Promise<void> {
    const missing = ids.filter((id) => !facetGroups.has(id));
    if (missing.length === 0) return;
    const rows = await queryRows<{ id: number; kind: SearchType; teamIds: string[]; categoryId: string | null; decade: number | null; favoriteStory: boolean }>(
      tx,
      sql`select f.id, f.kind, f.team_ids as "teamIds", f.category_id as "categoryId", f.decade, f.favorite_story as "favoriteStory"
          from search_facet_groups f where f.id = any(${`{${missing.join(",")}}`}::int[])`,
    );
    for (const { id, ...group } of rows) facetGroups.set(id, group);
  }

  /**
   * One page of results over the hits `h` (id, facet_group, year and, sorted by relevance, their
   * public rank as `score`), with the hits' facet groups and their counts, in one statement; the
   * total and the facets are summed from the groups here. `score` ranks the rows of `h` named `h`.
   */
  async function runPipeline(tx: Database, hitsQuery: SQL, request: SearchRequest, score: SQL | null, snippet: SQL): Promise<Pipeline> {
    const { filters } = splitRequest(request);
    const filtered = Object.values(filters).some((v) => v !== undefined);

    const offset = (request.page - 1) * SEARCH_LIMITS.pageSize;
    const [row] = await queryRows<PipelineRow>(
      tx,
      sql`
      with h as materialized (${hitsQuery}),
      -- The hits counted by their combination of filter values (one integer per document).
      x as (select h.facet_group, count(*)::int as n from h group by h.facet_group),
      -- Only the hits the filters keep are sorted (ranked as they were read, in h).
      page as (
        select h.id, h.year${score ? sql`, ${score} as score` : sql``} from h
        ${filtered ? sql`where h.facet_group in (select f.id from x join search_facet_groups f on f.id = x.facet_group where ${filterConditions(filters)})` : sql``}
        order by ${orderBy(request.sort)}
        limit ${SEARCH_LIMITS.pageSize} offset ${offset}
      )
      select
        (select json_build_object('ids', array_agg(x.facet_group), 'counts', array_agg(x.n)) from x) as groups,
        (select json_agg(json_build_array(t.id, t.name, t.sort_order)) from teams t) as teams,
        (select json_agg(json_build_array(c.id, c.category_name, c.sort_order)) from categories c) as categories,
        (select coalesce(json_agg(json_build_object(
            'id', d.id, 'kind', d.kind, 'title', d.title, 'altTitle', d.alt_title,
            'teams', (select json_agg(json_build_object('_id', t.id, 'name', t.name) order by t.sort_order, t.name)
                      from teams t where t.id = any(d.team_ids)),
            'categoryId', d.category_id, 'categoryName', d.category_name, 'year', d.year,
            'favoriteStory', d.favorite_story, 'snippet', ${snippet}
          ) order by ${orderBy(request.sort, "p")}), '[]'::json)
         from page p join search_documents d on d.id = p.id) as results`,
    );
    const ids = row.groups.ids ?? [];
    const counts = row.groups.counts ?? [];
    await loadFacetGroups(tx, ids);
    const labels = (list: [string, string, number][] | null) =>
      new Map<string, FacetLabel>((list ?? []).map(([id, name, order]) => [id, { name, order }]));
    const grouped = ids.flatMap((id, i) => {
      const group = facetGroups.get(id);
      return group ? [[group, counts[i]] as const] : [];
    });
    return { ...countFacets(grouped, filters, { teams: labels(row.teams), categories: labels(row.categories) }), results: row.results };
  }

  function splitRequest(request: SearchRequest): { filters: SearchFilters } {
    const { team, category, decade, type, favoriteStory } = request;
    return { filters: { team, category, decade, type, favoriteStory } };
  }

  function answerFrom(request: SearchRequest, member: boolean, row: Pipeline, mode: SearchAnswer["mode"]): SearchAnswer {
    const pages = Math.ceil(row.total / SEARCH_LIMITS.pageSize);
    let message: string | null = null;
    if (row.total === 0) message = row.hits > 0 ? SEARCH_MESSAGES.noResultsFiltered(request.q) : SEARCH_MESSAGES.noResults(request.q);
    else if (request.page > pages) message = SEARCH_MESSAGES.pastLastPage;
    return {
      ...emptyAnswer(request, member),
      total: row.total,
      pages,
      mode,
      message,
      results: row.results.map((r) => hitFrom(r, member)),
      facets: row.facets,
    };
  }

  const emptyAnswer = emptySearchAnswer;

  /** The pipeline's answer when no document has the words. */
  function noHits(request: SearchRequest): Pipeline {
    const none = countFacets([], splitRequest(request).filters, { teams: new Map(), categories: new Map() });
    return { ...none, results: [] };
  }

  /**
   * Runs `fn` in a transaction with the search's LOCAL settings. Read only (PostgreSQL refuses a
   * write in it): run again after any cut, with no transaction id to look up (decision 052).
   */
  function inSearchTransaction<T>(fn: (tx: Database) => Promise<T>): Promise<T> {
    return transactionRetrying(
      db,
      async (tx) => {
        const t = tx as unknown as Database;
        await t.execute(sql`select set_config('enable_seqscan', 'off', true), set_config('jit', 'off', true)`);
        return fn(t);
      },
      { accessMode: "read only" },
    );
  }

  /**
   * For each word not among the public words, the most similar one that is (pg_trgm similarity
   * of at least 0.3); words of one or two letters are left as they are. Empty when all are known.
   * The public words are those of the documents visible now: a word only a scheduled record has
   * is not offered before its time (migration 0029, decision 047).
   */
  async function corrections(tx: Database, words: string[]): Promise<Map<string, string>> {
    const shown = visibleAt(sql.raw("w.visible_from"), now());
    const rows = await queryRows<{ word: string; best: string | null }>(
      tx,
      sql`select t.word, (select w.word from search_words w where w.word % t.folded and ${shown}
                          order by similarity(w.word, t.folded) desc, w.word limit 1) as best
          from (select x.word, lower(museum_unaccent(x.word)) as folded
                from json_array_elements_text(${JSON.stringify(words.filter((w) => w.length > 2))}::json) as x(word)) t
          where not exists (select 1 from search_words w where w.word = t.folded and ${shown})`,
    );
    return new Map(rows.filter((r) => r.best).map((r) => [r.word, r.best!]));
  }

  /** The search for `q` (already cleaned) in words, as the pipeline reads it. */
  async function searchWords(tx: Database, request: SearchRequest, q: string, member: boolean) {
    const tsquery = sql`websearch_to_tsquery(${TS_CONFIG}, ${q})`;
    const vector = searchedVector(member);
    // Ranked only when sorted by relevance, on the public words: titles and names above team and
    // category. A member's answer of few matches is ranked on the whole weighted text, which
    // means reading each text, hence only then. The public rank is taken as each hit is read,
    // filtered out later or not: carrying the vectors into the materialized hits to rank only the
    // kept ones cost twice the search's time on a broad word (`npm run bench:search`).
    const relevance = request.sort === "relevance";
    let score: SQL | null = null;
    if (relevance) {
      score = sql`h.score`;
      if (member) {
        // Counts at most one hit past the limit: a broad search does not read all its hits again.
        score = sql`case when (select count(*) from (select from h limit ${FULL_TEXT_RANK_LIMIT + 1}) c) <= ${FULL_TEXT_RANK_LIMIT}
          then ts_rank((select d.member_vector from search_documents d where d.id = h.id), ${tsquery})
          else h.score end`;
      }
    }
    const hits = sql`
      select d.id, d.facet_group, d.year${relevance ? sql`, ts_rank(d.public_vector, ${tsquery}) as score` : sql``}
      from search_documents d
      where ${vector} @@ ${tsquery} and ${published()}`;
    // Gating: only a member's answer quotes the text. ts_headline parses all the text it is given,
    // so it is given a window of it: around the first place the longest word of the search
    // appears (its first letters, so other endings of the word count), else the beginning. The
    // place is looked for in the lower-cased text, and in the text without accents only when the
    // word is not there as written ("nunez" in "Núñez"), as removing accents costs more than the
    // headline; the markers are taken out of the window only. A whole text costs the headline
    // twice its time (`npm run bench:search`).
    const probe = normalizeWord(queryWords(q).sort((a, b) => b.length - a.length)[0] ?? "").slice(0, 6);
    const at = sql`coalesce(nullif(strpos(lower(d.body), ${probe}), 0), strpos(museum_unaccent(lower(d.body)), ${probe}))`;
    const window = probe ? sql`substr(d.body, greatest(1, ${at} - ${SNIPPET_LEAD}), ${SNIPPET_WINDOW})` : sql`left(d.body, ${SNIPPET_WINDOW})`;
    const text = sql`translate(${window}, ${HIGHLIGHT_START + HIGHLIGHT_END}, '')`;
    const snippet = member
      ? sql`ts_headline(${TS_CONFIG}, ${text}, ${tsquery}, ${`StartSel=${HIGHLIGHT_START}, StopSel=${HIGHLIGHT_END}, MaxWords=30, MinWords=15`})`
      : sql`null`;
    return runPipeline(tx, hits, request, score, snippet);
  }

  return {
    /** Searches as a member (`member` true: texts too) or as a visitor (titles, names, teams, categories). */
    async search(request: SearchRequest, member: boolean): Promise<SearchAnswer> {
      const q = cleanQuery(request.q);
      request = { ...request, q };
      if (!q) return emptyAnswer(request, member, SEARCH_MESSAGES.empty);

      return inSearchTransaction(async (tx) => {
        // Whether anything matches is asked with the query's shape: a misspelled search goes
        // straight to its corrections instead of through the whole statement for no hits.
        const [shape] = await queryRows<{ nodes: number; indexable: string; matches: boolean | null }>(
          tx,
          sql`select numnode(x.q)::int as nodes, querytree(x.q) as indexable,
                case when numnode(x.q) > 0 and querytree(x.q) <> 'T'
                  then exists (select from search_documents d where ${searchedVector(member)} @@ x.q and ${published()}) end as matches
              from websearch_to_tsquery(${TS_CONFIG}, ${q}) as x(q)`,
        );
        if (shape.nodes === 0) return emptyAnswer(request, member, SEARCH_MESSAGES.noWords(q));
        if (shape.indexable === "T") return emptyAnswer(request, member, SEARCH_MESSAGES.onlyExcluded);

        if (shape.matches) return answerFrom(request, member, await searchWords(tx, request, q, member), "words");
        const found = noHits(request);

        // No document has these words: the same search with misspelled words corrected.
        const fixes = await corrections(tx, queryWords(q));
        if (fixes.size === 0) return answerFrom(request, member, found, "words");
        const corrected = replaceWords(q, fixes);
        const close = await searchWords(tx, request, corrected, member);
        if (close.hits === 0) return answerFrom(request, member, found, "words");
        const answer = answerFrom(request, member, close, "similar");
        answer.didYouMean = corrected;
        if (close.total > 0 && request.page <= answer.pages) answer.message = SEARCH_MESSAGES.similar(q, corrected);
        return answer;
      });
    },

    /** Up to 8 titles and names for what has been typed so far; the same for visitors and members. */
    async suggest(raw: string): Promise<Suggestion[]> {
      const q = cleanQuery(raw);
      const words = queryWords(q, { keepExcluded: true }).map(normalizeWord).filter(Boolean);
      if ([...q].length < SEARCH_LIMITS.suggestFrom || words.length === 0) return [];
      const rows = await inSearchTransaction(async (tx) => {
        // Every word typed must begin a word of the title or name; the last one may be unfinished.
        const byBeginnings = (list: string[]) =>
          queryRows<SuggestRow>(
            tx,
            sql`select c.* from (
                  select d.id, d.kind, d.title, d.team_ids[1] as "teamId", d.team_names as "teamNames", d.year, d.suggest_text
                  from search_documents d
                  where d.suggest_vector @@ to_tsquery('simple', ${list.map((w) => `'${w}':*`).join(" & ")}) and ${published()}
                  limit ${SUGGEST_CANDIDATES}
                ) c
                order by (c.suggest_text like ${`${list.join(" ")}%`}) desc, c.kind = 'enshrinee' desc, length(c.title), c.title collate "C"
                limit ${SEARCH_LIMITS.suggestions}`,
          );
        const found = await byBeginnings(words);
        if (found.length > 0 || words.join(" ").length < 4) return found;
        // A typo: the words corrected from the public words, as for a search.
        const fixes = await corrections(tx, words);
        return fixes.size ? byBeginnings(words.map((w) => fixes.get(w) ?? w)) : found;
      });
      return rows.map((r) => ({
        _id: r.id,
        type: r.kind,
        title: r.title,
        detail: [r.teamNames, r.year ? (r.kind === "exhibit" ? String(r.year) : `from ${r.year}`) : ""].filter(Boolean).join(" · "),
        url: r.kind === "exhibit" ? exhibitPath({ _id: r.id, title: r.title, team: { _id: r.teamId ?? "" } }) : enshrineePath({ _id: r.id, fullName: r.title }),
      }));
    },
  };
}

interface SuggestRow {
  id: string;
  kind: SearchType;
  title: string;
  teamId: string | null;
  teamNames: string;
  year: number | null;
}

export type Search = ReturnType<typeof createSearch>;
