/**
 * Searching the collection (issue 14, decision 014), over `search_documents`, which triggers keep
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
import { enshrineePath, exhibitPath } from "../../app/lib/exhibit-links";
import {
  HIGHLIGHT_END,
  HIGHLIGHT_START,
  SEARCH_LIMITS,
  SEARCH_MESSAGES,
  cleanQuery,
  emptySearchAnswer,
  type FacetValue,
  type SearchAnswer,
  type SearchFilters,
  type SearchHit,
  type SearchRequest,
  type SearchType,
  type Suggestion,
} from "../../app/lib/search";
import { queryRows, type Database } from "../db/client";
import { normalizeWord, queryWords, replaceWords } from "./spelling";

/** Below this many matches a member's results are ranked on the whole text (reading every text costs ~5 µs each on PGlite). */
export const FULL_TEXT_RANK_LIMIT = 100;
/** A snippet is cut from this many characters of the text, starting this many before the first match. */
const SNIPPET_WINDOW = 420;
const SNIPPET_LEAD = 160;
/** Suggestions are chosen among at most this many candidates, so a two-letter beginning stays cheap. */
const SUGGEST_CANDIDATES = 200;

const TS_CONFIG = sql.raw("'museum_search'");
type FacetKey = "type" | "team" | "category" | "decade" | "favoriteStory";

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
  hits: number;
  total: number;
  results: ResultRow[];
  facets: { facet: FacetKey | "total"; value: string; label: string; ord: number; count: number }[];
}

/** The filter conditions on the hits `h`, all of them or all but one facet's own. */
function filterConditions(filters: SearchFilters, except?: FacetKey): SQL {
  const parts: SQL[] = [];
  if (filters.type && except !== "type") parts.push(sql`h.kind = ${filters.type}`);
  if (filters.team && except !== "team") parts.push(sql`${filters.team}::uuid = any(h.team_ids)`);
  if (filters.category && except !== "category") parts.push(sql`h.category_id = ${filters.category}::uuid`);
  if (filters.decade !== undefined && except !== "decade") parts.push(sql`h.decade = ${filters.decade}::int`);
  if (filters.favoriteStory !== undefined && except !== "favoriteStory") {
    parts.push(filters.favoriteStory ? sql`h.favorite_story` : sql`not h.favorite_story`);
  }
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

const TYPE_LABELS: Record<SearchType, string> = { exhibit: "Exhibits", enshrinee: "Enshrinees" };

function facetsFrom(rows: PipelineRow["facets"], filters: SearchFilters): SearchAnswer["facets"] {
  const facets: SearchAnswer["facets"] = { type: [], team: [], category: [], decade: [], favoriteStory: [] };
  const sorted = [...rows].sort((a, b) => a.ord - b.ord || a.label.localeCompare(b.label));
  for (const r of sorted) {
    if (r.facet === "total") continue;
    const selected = String(filters[r.facet] ?? "") === r.value;
    if (r.count === 0 && !selected) continue;
    const label = r.facet === "type" ? TYPE_LABELS[r.value as SearchType] : r.label;
    facets[r.facet].push({ value: r.value, label, count: r.count } satisfies FacetValue);
  }
  return facets;
}

export function createSearch(db: Database) {
  /**
   * Facets, total and one page of results over the hits `h` (id, facet_group, year and, sorted
   * by relevance, their public rank as `score`), in one statement. `score` ranks the rows of `h`
   * named `h`.
   */
  async function runPipeline(tx: Database, hits: SQL, request: SearchRequest, score: SQL | null, snippet: SQL): Promise<PipelineRow> {
    const { filters } = splitRequest(request);
    const all = filterConditions(filters);
    const others = (key: FacetKey) => filterConditions(filters, key);
    const filtered = Object.values(filters).some((v) => v !== undefined);

    const offset = (request.page - 1) * SEARCH_LIMITS.pageSize;
    const [row] = await queryRows<PipelineRow>(
      tx,
      sql`
      with h as materialized (${hits}),
      -- The hits grouped by their combination of filter values (one integer per document, decision
      -- 014), then those few combinations read: the total and every facet are summed from them
      -- (named h, as the filters expect).
      g as materialized (
        select f.kind, f.team_ids, f.category_id, f.decade, f.favorite_story, f.id as facet_group, x.n
        from (select h.facet_group, count(*)::int as n from h group by h.facet_group) x
        join search_facet_groups f on f.id = x.facet_group
      ),
      -- Only the hits the filters keep are ranked and sorted.
      page as (
        select h.id, h.year${score ? sql`, ${score} as score` : sql``} from h
        ${filtered ? sql`where h.facet_group in (select h.facet_group from g h where ${all})` : sql``}
        order by ${orderBy(request.sort)}
        limit ${SEARCH_LIMITS.pageSize} offset ${offset}
      )
      select
        (select coalesce(sum(h.n), 0)::int from g h) as hits,
        (select coalesce(sum(h.n), 0)::int from g h where ${all}) as total,
        (select coalesce(json_agg(json_build_object(
            'id', d.id, 'kind', d.kind, 'title', d.title, 'altTitle', d.alt_title,
            'teams', (select json_agg(json_build_object('_id', t.id, 'name', t.name) order by t.sort_order, t.name)
                      from teams t where t.id = any(d.team_ids)),
            'categoryId', d.category_id, 'categoryName', d.category_name, 'year', d.year,
            'favoriteStory', d.favorite_story, 'snippet', ${snippet}
          ) order by ${orderBy(request.sort, "p")}), '[]'::json)
         from page p join search_documents d on d.id = p.id) as results,
        (select coalesce(json_agg(f), '[]'::json) from (
          select 'type' as facet, h.kind as value, h.kind as label, case h.kind when 'exhibit' then 0 else 1 end as ord, sum(h.n)::int as count
            from g h where ${others("type")} group by h.kind
          union all
          select 'team', t.id::text, t.name, t.sort_order, x.n::int
            from (select u.team_id, sum(u.n) as n
                  from (select unnest(h.team_ids) as team_id, h.n from g h where ${others("team")}) u
                  group by u.team_id) x
            join teams t on t.id = x.team_id
          union all
          select 'category', c.id::text, c.category_name, c.sort_order, x.n::int
            from (select h.category_id, sum(h.n) as n from g h where h.category_id is not null and ${others("category")} group by h.category_id) x
            join categories c on c.id = x.category_id
          union all
          select 'decade', h.decade::text, h.decade::text || 's', h.decade, sum(h.n)::int
            from g h where h.decade is not null and ${others("decade")} group by h.decade
          union all
          select 'favoriteStory', 'true', 'Favorite stories', 0, coalesce(sum(h.n), 0)::int
            from g h where h.favorite_story and ${others("favoriteStory")}
        ) f) as facets`,
    );
    return row;
  }

  function splitRequest(request: SearchRequest): { filters: SearchFilters } {
    const { team, category, decade, type, favoriteStory } = request;
    return { filters: { team, category, decade, type, favoriteStory } };
  }

  function answerFrom(request: SearchRequest, member: boolean, row: PipelineRow, mode: SearchAnswer["mode"]): SearchAnswer {
    const { filters } = splitRequest(request);
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
      facets: facetsFrom(row.facets, filters),
    };
  }

  const emptyAnswer = emptySearchAnswer;

  /** Runs `fn` in a transaction with the search's LOCAL settings. */
  function inSearchTransaction<T>(fn: (tx: Database) => Promise<T>): Promise<T> {
    return db.transaction(async (tx) => {
      const t = tx as unknown as Database;
      await t.execute(sql`select set_config('enable_seqscan', 'off', true), set_config('jit', 'off', true)`);
      return fn(t);
    });
  }

  /**
   * For each word not among the public words, the most similar one that is (pg_trgm similarity
   * of at least 0.3); words of one or two letters are left as they are. Empty when all are known.
   */
  async function corrections(tx: Database, words: string[]): Promise<Map<string, string>> {
    const rows = await queryRows<{ word: string; best: string | null }>(
      tx,
      sql`select t.word, (select w.word from search_words w where w.word % t.folded
                          order by similarity(w.word, t.folded) desc, w.word limit 1) as best
          from (select x.word, lower(museum_unaccent(x.word)) as folded
                from json_array_elements_text(${JSON.stringify(words.filter((w) => w.length > 2))}::json) as x(word)) t
          where not exists (select 1 from search_words w where w.word = t.folded)`,
    );
    return new Map(rows.filter((r) => r.best).map((r) => [r.word, r.best!]));
  }

  /** The search for `q` (already cleaned) in words, as the pipeline reads it. */
  async function searchWords(tx: Database, request: SearchRequest, q: string, member: boolean) {
    const tsquery = sql`websearch_to_tsquery(${TS_CONFIG}, ${q})`;
    // Gating: a visitor's words are looked for in the public words only.
    const vector = member ? sql.raw("d.member_vector") : sql.raw("d.public_vector");
    // Ranked (only when sorted by relevance, and only the hits the filters keep) on the public
    // words: titles and names above team and category. A member's answer of few matches is ranked
    // on the whole weighted text, which means reading each text, hence only then.
    // The public rank is taken as each hit is read: carrying the vectors into the materialized
    // hits cost twice the search's time on a broad word (19 against 9.5 ms for 6,810 hits on
    // PostgreSQL, measured 2026-11-25), more than ranking hits a filter then drops.
    const relevance = request.sort === "relevance";
    let score: SQL | null = null;
    if (relevance) {
      score = sql`h.score`;
      if (member) {
        score = sql`case when (select count(*) from h) <= ${FULL_TEXT_RANK_LIMIT}
          then ts_rank((select d.member_vector from search_documents d where d.id = h.id), ${tsquery})
          else h.score end`;
      }
    }
    const hits = sql`
      select d.id, d.facet_group, d.year${relevance ? sql`, ts_rank(d.public_vector, ${tsquery}) as score` : sql``}
      from search_documents d
      where ${vector} @@ ${tsquery}`;
    // Gating: only a member's answer quotes the text. ts_headline parses all the text it is given,
    // so it is given a window of it: around the first place the longest word of the search
    // appears (its first letters, so other endings of the word count), else the beginning.
    const probe = normalizeWord(queryWords(q).sort((a, b) => b.length - a.length)[0] ?? "").slice(0, 6);
    const text = sql`translate(d.body, ${HIGHLIGHT_START + HIGHLIGHT_END}, '')`;
    const window = probe
      ? sql`substr(${text}, greatest(1, strpos(museum_unaccent(lower(d.body)), ${probe}) - ${SNIPPET_LEAD}), ${SNIPPET_WINDOW})`
      : sql`left(${text}, ${SNIPPET_WINDOW})`;
    const snippet = member
      ? sql`ts_headline(${TS_CONFIG}, ${window}, ${tsquery}, ${`StartSel=${HIGHLIGHT_START}, StopSel=${HIGHLIGHT_END}, MaxWords=30, MinWords=15`})`
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
        const [shape] = await queryRows<{ nodes: number; indexable: string }>(
          tx,
          sql`select numnode(x.q)::int as nodes, querytree(x.q) as indexable from websearch_to_tsquery(${TS_CONFIG}, ${q}) as x(q)`,
        );
        if (shape.nodes === 0) return emptyAnswer(request, member, SEARCH_MESSAGES.noWords(q));
        if (shape.indexable === "T") return emptyAnswer(request, member, SEARCH_MESSAGES.onlyExcluded);

        const found = await searchWords(tx, request, q, member);
        if (found.hits > 0) return answerFrom(request, member, found, "words");

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
                  where d.suggest_vector @@ to_tsquery('simple', ${list.map((w) => `'${w}':*`).join(" & ")})
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
