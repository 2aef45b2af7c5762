/**
 * Searching the collection through HTTP on both databases: gating (a visitor's words
 * are looked for in titles, names, teams and categories only; texts and snippets are for
 * members), the typo fallback with "Did you mean", accents, web-search syntax, filters with their
 * counts, pages and sorting, suggestions, edits searchable at once, the page cache leaving search
 * alone, the search rate limit, and odd or hostile input answered without a 5xx.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CategoryView, TeamView } from "~/shared/catalog-types";
import { SEARCH_LIMITS, SEARCH_MESSAGES, type SearchAnswer, type Suggestion } from "~/shared/search";
import { queryRows } from "../../server/db/client";
import { enshrineeExhibits, enshrinees, exhibits, teams } from "../../server/db/schema";
import { availableDrivers } from "../helpers/databases";
import { createSignedInAccount, dateFromToday } from "../helpers/fixtures";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();

/** Words that appear nowhere in the demo collection, each placed by the test in one field. */
const DESCRIPTION_ONLY = "zephyrquartz";
const BIOGRAPHY_ONLY = "marmalitude";
const EXHIBIT_ID = "00000000-0000-4000-8000-00000000e141";
const ENSHRINEE_ID = "00000000-0000-4000-8000-00000000e142";

describe.each(drivers)("search on %s", (kind) => {
  let server: TestServer;
  let member: string;
  let allTeams: TeamView[];
  let allCategories: CategoryView[];
  const get = (path: string, cookie?: string) => fetch(`${server.url}${path}`, { headers: cookie ? { cookie } : {} });
  const search = async (query: string, cookie?: string) => {
    const res = await get(`/api/search?${query}`, cookie);
    expect(res.status, query).toBe(200);
    return (await res.json()) as SearchAnswer;
  };
  const q = (text: string) => `q=${encodeURIComponent(text)}`;

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { seed: true });
    member = (await createSignedInAccount(server.services, { validThrough: dateFromToday(30) })).cookie;
    allTeams = (await (await get("/api/teams/")).json()) as TeamView[];
    allCategories = (await (await get("/api/categories")).json()) as CategoryView[];
    // An exhibit whose one unusual word is in its member-only description, with an accented
    // title, and an enshrinee whose unusual word is in the biography.
    const db = server.services.database.db;
    await db.insert(exhibits).values({
      id: EXHIBIT_ID,
      slug: "search-test-dihigo",
      teamId: allTeams[0]._id,
      categoryId: allCategories[0]._id,
      title: "Martín Dihigo's Winter Season",
      shortTitle: "Dihigo's Winter",
      description: `A quiet exhibit. The ${DESCRIPTION_ONLY} trophy was kept in a cigar box for forty years.`,
      thumbnail: "exhibits/none/photo-1.svg",
      thumbnailAlt: "A trophy",
      year: 1938,
    });
    await db.insert(enshrinees).values({
      id: ENSHRINEE_ID,
      slug: "search-test-person",
      fullName: "Zbigniew Ørsted",
      firstName: "Zbigniew",
      lastName: "Ørsted",
      biography: `Known in the clubhouse for a ${BIOGRAPHY_ONLY} that no one could explain.`,
    });
    await db.insert(enshrineeExhibits).values({ enshrineeId: ENSHRINEE_ID, exhibitId: EXHIBIT_ID });
  }, 120_000);
  afterAll(() => server?.close());

  describe("gating", () => {
    it("finds nothing for a visitor's word that is only in a member-only description or biography", async () => {
      for (const word of [DESCRIPTION_ONLY, BIOGRAPHY_ONLY, "zephyrquarts"]) {
        const visitor = await search(q(word));
        expect(visitor.total, word).toBe(0);
        expect(visitor.results).toEqual([]);
        expect(visitor.memberTexts).toBe(false);
        // Nor is a misspelling corrected to a word of a member-only text.
        expect(visitor.didYouMean).toBeNull();
        const page = await (await get(`/search?${q(word)}`)).text();
        expect(page).toContain("Nothing in the collection matches");
        expect(page).not.toContain("Winter Season");
        expect(page).not.toContain("Ørsted");
      }
    });

    it("finds it for a member, with a snippet of the text that matched", async () => {
      const found = await search(q(DESCRIPTION_ONLY), member);
      expect(found.memberTexts).toBe(true);
      expect(found.results.map((r) => r._id)).toEqual([EXHIBIT_ID]);
      expect(found.results[0].snippet).toContainEqual({ text: DESCRIPTION_ONLY, match: true });
      const person = await search(q(BIOGRAPHY_ONLY), member);
      expect(person.results.map((r) => r._id)).toEqual([ENSHRINEE_ID]);
      expect(person.results[0].snippet?.some((r) => r.match && r.text === BIOGRAPHY_ONLY)).toBe(true);
      const page = await (await get(`/search?${q(DESCRIPTION_ONLY)}`, member)).text();
      expect(page).toContain(`<mark class="rounded-sm bg-gold/60 px-0.5 text-ink">${DESCRIPTION_ONLY}</mark>`);
    });

    it("gives visitors what they may see of a match and never a snippet or a text", async () => {
      const visitor = await search(q("dihigo"));
      const hit = visitor.results.find((r) => r._id === EXHIBIT_ID)!;
      expect(hit).toMatchObject({ title: "Martín Dihigo's Winter Season", shortTitle: "Dihigo's Winter", year: 1938, type: "exhibit" });
      expect(hit.teams[0]).toEqual({ _id: allTeams[0]._id, name: allTeams[0].name });
      expect(hit.category).toEqual(allCategories[0]);
      for (const r of visitor.results) expect(r).not.toHaveProperty("snippet");
      const body = JSON.stringify(visitor) + (await (await get(`/search?${q("dihigo")}`)).text());
      expect(body).not.toContain(DESCRIPTION_ONLY);
      expect(body).not.toContain("cigar box");
      // The enshrinee's name is public: it finds the exhibit they are linked to.
      expect((await search(q("orsted"))).results.map((r) => r._id).sort()).toEqual([EXHIBIT_ID, ENSHRINEE_ID].sort());
    });

    it("treats an expired ticket as a visitor", async () => {
      const expired = (await createSignedInAccount(server.services, { firstName: "Old", validThrough: dateFromToday(-1) })).cookie;
      const answer = await search(q(DESCRIPTION_ONLY), expired);
      expect(answer.total).toBe(0);
      expect(answer.memberTexts).toBe(false);
    });
  });

  describe("words", () => {
    it("finds any exhibit, enshrinee or story by name or title, titles and names first", async () => {
      const answer = await search(q("clemente"));
      expect(answer.mode).toBe("words");
      const titles = answer.results.map((r) => r.title);
      expect(titles).toEqual(expect.arrayContaining(["Roberto Clemente", "Roberto Clemente's 3,000th Hit"]));
      expect(answer.results.find((r) => r.title === "Roberto Clemente")).toMatchObject({ type: "enshrinee", url: expect.stringMatching(/^\/enshrinees\/roberto-clemente\//) });
      const story = await search(q("the immaculate reception"));
      expect(story.results[0]).toMatchObject({ title: "The Immaculate Reception", favoriteStory: true, url: expect.stringMatching(/^\/teams\/[^/]+\/the-immaculate-reception\/[^/]+$/) });
    });

    it("is accent-insensitive both ways", async () => {
      for (const text of ["martin dihigo", "Martín Dihigo", "MARTÍN"]) {
        expect((await search(q(text))).results.map((r) => r._id), text).toContain(EXHIBIT_ID);
      }
      // Demo text: "Luis Márquez" is in a member-only description.
      const plain = await search(q("marquez"), member);
      const accented = await search(q("Márquez"), member);
      expect(plain.total).toBeGreaterThan(0);
      expect(accented.results.map((r) => r._id)).toEqual(plain.results.map((r) => r._id));
      expect(plain.results[0].snippet?.find((r) => r.match)?.text).toBe("Márquez");
    });

    it("understands quotes, -word and or", async () => {
      const phrase = await search(q('"immaculate reception"'));
      expect(phrase.results.map((r) => r.title)).toEqual(["The Immaculate Reception"]);
      const inOrder = await search(q('"lemieux arrives"'));
      expect(inOrder.mode).toBe("words");
      expect(inOrder.results.map((r) => r.title)).toEqual(["Mario Lemieux Arrives, 1984"]);
      // The words in another order are no match (and, all spelled right, nothing to correct).
      const reversed = await search(q('"arrives lemieux"'));
      expect(reversed).toMatchObject({ mode: "words", total: 0, didYouMean: null });
      const steelers = await search(q("steelers"));
      const withoutSuper = await search(q("steelers -super"));
      expect(withoutSuper.total).toBeGreaterThan(0);
      expect(withoutSuper.total).toBeLessThan(steelers.total);
      for (const r of withoutSuper.results) expect(`${r.title} ${r.shortTitle ?? ""}`).not.toMatch(/super/i);
      const either = await search(q("lemieux or clemente"));
      const names = either.results.map((r) => r.title);
      expect(names).toEqual(expect.arrayContaining(["Mario Lemieux", "Roberto Clemente"]));
    });

    it("falls back to names and titles spelled alike, and offers the correction", async () => {
      for (const [typo, fix, title] of [
        ["clemnte", "clemente", "Roberto Clemente"],
        ["lemieu", "lemieux", "Mario Lemieux"],
        ["imaculate recepton", "immaculate reception", "The Immaculate Reception"],
        // Syntax and the words spelled right stay as typed.
        ['"Imaculate Reception" -raiders', '"immaculate Reception" -raiders', "The Immaculate Reception"],
        ["Roberto Clemnte", "Roberto clemente", "Roberto Clemente"],
      ]) {
        const answer = await search(q(typo));
        expect(answer.mode, typo).toBe("similar");
        expect(answer.didYouMean, typo).toBe(fix);
        expect(answer.results.map((r) => r.title), typo).toContain(title);
        expect(answer.message).toBe(SEARCH_MESSAGES.similar(typo, fix));
      }
      const page = await (await get(`/search?${q("clemnte")}`)).text();
      expect(page).toMatch(/Did you mean(?:<!-- -->)? <a[^>]*href="\/search\?q=clemente"[^>]*>clemente<\/a>/);
    });

    it("makes an edit searchable at once: a new title, a hidden exhibit, a renamed team", async () => {
      const db = server.services.database.db;
      await db.update(exhibits).set({ title: "Dihigo's Havana Winter" }).where(eq(exhibits.id, EXHIBIT_ID));
      expect((await search(q("havana"))).results.map((r) => r._id)).toEqual([EXHIBIT_ID]);
      await db.update(exhibits).set({ active: false }).where(eq(exhibits.id, EXHIBIT_ID));
      expect((await search(q("havana"))).total).toBe(0);
      await db.update(exhibits).set({ active: true, title: "Martín Dihigo's Winter Season" }).where(eq(exhibits.id, EXHIBIT_ID));
      const team = allTeams[0];
      await db.update(teams).set({ name: "Pittsburgh Quillfeathers" }).where(eq(teams.id, team._id));
      try {
        const renamed = await search(q("quillfeathers"));
        expect(renamed.total).toBeGreaterThan(1);
        expect(renamed.facets.team).toContainEqual({ value: team._id, label: "Pittsburgh Quillfeathers", count: renamed.total });
      } finally {
        await db.update(teams).set({ name: team.name }).where(eq(teams.id, team._id));
      }
      expect((await search(q("quillfeathers"))).total).toBe(0);
    });
    it("finds what a curator saves in the console at once, texts for members only", async () => {
      const consoleExhibits = server.services.admin.collection.exhibits;
      const record = (await consoleExhibits.get(EXHIBIT_ID))!;
      const saved = await consoleExhibits.save({ userId: null, email: "search-test@museum.example" }, EXHIBIT_ID, {
        teamId: record.teamId,
        categoryId: record.categoryId,
        title: "Dihigo Plays Every Position",
        shortTitle: record.shortTitle,
        descriptionHtml: "<p>He pitched, caught and played all nine positions in one quixotrophic afternoon.</p>",
        thumbnail: record.thumbnail,
        thumbnailAlt: record.thumbnailAlt,
        matchingPhoto: record.matchingPhoto,
        matchingPhotoAlt: record.matchingPhotoAlt,
        active: true,
        year: record.year,
        favoriteStory: record.favoriteStory,
        enshrineeIds: record.enshrineeIds,
      });
      expect(saved.ok).toBe(true);
      try {
        expect((await search(q("every position"))).results.map((r) => r._id)).toEqual([EXHIBIT_ID]);
        expect((await search(q("quixotrophic"))).total).toBe(0);
        const asMember = await search(q("quixotrophic"), member);
        expect(asMember.results.map((r) => r._id)).toEqual([EXHIBIT_ID]);
        expect(asMember.results[0].snippet).toContainEqual({ text: "quixotrophic", match: true });
      } finally {
        await server.services.database.db
          .update(exhibits)
          .set({ title: "Martín Dihigo's Winter Season", descriptionHtml: null, description: `A quiet exhibit. The ${DESCRIPTION_ONLY} trophy was kept in a cigar box for forty years.` })
          .where(eq(exhibits.id, EXHIBIT_ID));
      }
    });
  });

  describe("filters, pages and order", () => {
    it("counts each filter's values for the query and the other filters, and the filters combine", async () => {
      const all = await search(q("pittsburgh"));
      expect(all.total).toBeGreaterThan(SEARCH_LIMITS.pageSize);
      const byType = all.facets.type.reduce((n, f) => n + f.count, 0);
      expect(byType).toBe(all.total);
      expect(all.facets.type.map((f) => f.value)).toEqual(["exhibit", "enshrinee"]);
      for (const team of all.facets.team) {
        const filtered = await search(`${q("pittsburgh")}&team=${team.value}`);
        expect(filtered.total, team.label).toBe(team.count);
        expect(filtered.results.every((r) => r.teams.some((t) => t._id === team.value))).toBe(true);
        // A filter's own values keep their counts; the others are counted within it.
        expect(filtered.facets.team).toEqual(all.facets.team);
        expect(filtered.facets.type.reduce((n, f) => n + f.count, 0)).toBe(team.count);
      }
      const decade = all.facets.decade.find((d) => d.count > 1)!;
      const exhibitsOnly = await search(`${q("pittsburgh")}&decade=${decade.value}&type=exhibit`);
      expect(exhibitsOnly.results.every((r) => r.type === "exhibit" && r.year! >= Number(decade.value) && r.year! < Number(decade.value) + 10)).toBe(true);
      expect(exhibitsOnly.total).toBe(exhibitsOnly.facets.type.find((t) => t.value === "exhibit")!.count);
      const stories = await search(`${q("pittsburgh")}&favoriteStory=true`);
      expect(stories.total).toBe(all.facets.favoriteStory[0].count);
      expect(stories.results.every((r) => r.favoriteStory)).toBe(true);
      const category = all.facets.category[0];
      const inCategory = await search(`${q("pittsburgh")}&category=${category.value}`);
      expect(inCategory.total).toBe(category.count);
      expect(inCategory.results.every((r) => r.category?._id === category.value)).toBe(true);
    });

    it("counts every value of a broad search as the documents do, for visitors and members, and counts a moved exhibit at once", async () => {
      const db = server.services.database.db;
      // The counts read straight from the search documents, one value at a time.
      const trueCounts = async (member: boolean) => {
        const vector = sql.raw(member ? "member_vector" : "public_vector");
        const rows = await queryRows<{ facet: string; value: string; count: number }>(
          db,
          sql`with h as (select * from search_documents where ${vector} @@ websearch_to_tsquery('museum_search', 'pittsburgh'))
              select 'type' as facet, kind as value, count(*)::int as count from h group by kind
              union all select 'team', t::text, count(*)::int from h, unnest(team_ids) as t group by t
              union all select 'category', category_id::text, count(*)::int from h where category_id is not null group by category_id
              union all select 'decade', decade::text, count(*)::int from h where decade is not null group by decade
              union all select 'favoriteStory', 'true', count(*)::int from h where favorite_story having count(*) > 0`,
        );
        return rows.map((r) => `${r.facet}=${r.value}:${r.count}`).sort();
      };
      const shown = (answer: SearchAnswer) =>
        Object.entries(answer.facets)
          .flatMap(([facet, values]) => values.map((v) => `${facet}=${v.value}:${v.count}`))
          .sort();
      expect(shown(await search(q("pittsburgh")))).toEqual(await trueCounts(false));
      const asMember = await search(q("pittsburgh"), member);
      expect(asMember.total).toBeGreaterThan((await search(q("pittsburgh"))).total);
      expect(shown(asMember)).toEqual(await trueCounts(true));

      // Moved to another category and a decade no exhibit of that category has: counted there at once.
      const [before] = await db.select().from(exhibits).where(eq(exhibits.id, EXHIBIT_ID));
      const category = allCategories.at(-1)!._id;
      await db.update(exhibits).set({ categoryId: category, year: 1893 }).where(eq(exhibits.id, EXHIBIT_ID));
      try {
        const moved = await search(`${q("pittsburgh")}&category=${category}&decade=1890`, member);
        expect(moved.results.map((r) => r._id)).toContain(EXHIBIT_ID);
        expect(moved.facets.decade).toContainEqual({ value: "1890", label: "1890s", count: moved.total });
        expect(shown(await search(q("pittsburgh"), member))).toEqual(await trueCounts(true));
      } finally {
        await db.update(exhibits).set({ categoryId: before.categoryId, year: before.year }).where(eq(exhibits.id, EXHIBIT_ID));
      }
      expect(shown(await search(q("pittsburgh"), member))).toEqual(await trueCounts(true));
    });

    it("pages through the results without overlap and says when a page is past the end", async () => {
      const first = await search(q("pittsburgh"));
      const second = await search(`${q("pittsburgh")}&page=2`);
      expect(first.results).toHaveLength(SEARCH_LIMITS.pageSize);
      expect(first.pages).toBe(Math.ceil(first.total / SEARCH_LIMITS.pageSize));
      expect(second.total).toBe(first.total);
      const ids = new Set(first.results.map((r) => r._id));
      expect(second.results.some((r) => ids.has(r._id))).toBe(false);
      const beyond = await search(`${q("pittsburgh")}&page=${first.pages + 1}`);
      expect(beyond.results).toEqual([]);
      expect(beyond.message).toBe(SEARCH_MESSAGES.pastLastPage);
    });

    it("sorts by relevance, or by year either way on request", async () => {
      const relevance = await search(q("clemente"));
      expect(["Roberto Clemente", "Roberto Clemente's 3,000th Hit"]).toContain(relevance.results[0].title);
      const years = (await search(`${q("pittsburgh")}&sort=year`)).results.map((r) => r.year!);
      expect(years).toEqual([...years].sort((a, b) => a - b));
      const newest = (await search(`${q("pittsburgh")}&sort=year-desc`)).results.map((r) => r.year!);
      expect(newest).toEqual([...newest].sort((a, b) => b - a));
    });

    it("serves the same on the page, with filter links that carry their counts", async () => {
      const all = await search(q("pittsburgh"));
      const team = all.facets.team[0];
      const html = await (await get(`/search?${q("pittsburgh")}`)).text();
      expect(html).toContain(`${all.total} results`);
      expect(html).toContain(`href="/search?q=pittsburgh&amp;team=${team.value}"`);
      const filtered = await (await get(`/search?${q("pittsburgh")}&team=${team.value}&sort=year`)).text();
      expect(filtered).toContain(`${team.count} result`);
      expect(filtered).toMatch(/aria-current="true"[^>]*>Oldest first</);
    });
  });

  describe("suggestions", () => {
    it("suggests names and titles by word beginnings, the same for visitors and members", async () => {
      const res = await get("/api/search/suggest?q=clem");
      expect(res.status).toBe(200);
      const visitor = (await res.json()) as Suggestion[];
      expect(visitor[0]).toMatchObject({ title: "Roberto Clemente", type: "enshrinee", url: expect.stringMatching(/^\/enshrinees\//) });
      expect(visitor.map((s) => Object.keys(s).sort())).toEqual(visitor.map(() => ["_id", "detail", "title", "type", "url"]));
      expect(await (await get("/api/search/suggest?q=clem", member)).json()).toEqual(visitor);
      const two = (await (await get(`/api/search/suggest?q=${encodeURIComponent("roberto cl")}`)).json()) as Suggestion[];
      expect(two.map((s) => s.title)).toContain("Roberto Clemente");
      expect(((await (await get("/api/search/suggest?q=mart%C3%ADn%20dih")).json()) as Suggestion[]).map((s) => s._id)).toContain(EXHIBIT_ID);
      expect(((await (await get("/api/search/suggest?q=clemnte")).json()) as Suggestion[]).map((s) => s.title)).toContain("Roberto Clemente");
      expect(await (await get("/api/search/suggest?q=c")).json()).toEqual([]);
      // Texts are not suggested: the suggestion for a text-only word is nothing.
      expect(await (await get(`/api/search/suggest?q=${DESCRIPTION_ONLY}`, member)).json()).toEqual([]);
    });
  });

  describe("odd input", () => {
    const ODD = [
      "",
      " ",
      "!!!",
      "?",
      "the",
      "-steelers",
      '"',
      '""',
      '"unclosed phrase',
      "or",
      "- -",
      "&|!:*()",
      "a:* & b",
      "'; drop table exhibits; --",
      "1=1 OR 'x'='x'",
      "\\",
      "%",
      "_",
      "<script>alert(1)</script>",
      "\u0000",
      "bell\u0007 and tab\t",
      "\u007f\u0080\u009f",
      "\uE000clemente\uE001",
      "😀 ⚾ 🏒",
      "x".repeat(SEARCH_LIMITS.maxQueryLength),
      "supercalifragilisticexpialidocious".repeat(5).slice(0, 199),
    ];

    it("answers every odd search text without a server error, with a clear message when nothing is searched", async () => {
      for (const text of ODD) {
        for (const path of [`/api/search?${q(text)}`, `/api/search/suggest?${q(text)}`, `/search?${q(text)}`, `/search.data?${q(text)}`]) {
          const res = await get(path);
          expect(res.status, `${path}`).toBeLessThan(500);
          expect(res.status, path).toBe(200);
          await res.arrayBuffer();
        }
      }
      expect((await search("q=")).message).toBe(SEARCH_MESSAGES.empty);
      expect((await search(q("!!!"))).message).toBe(SEARCH_MESSAGES.noWords("!!!"));
      expect((await search(q("the"))).message).toBe(SEARCH_MESSAGES.noWords("the"));
      expect((await search(q("-steelers"))).message).toBe(SEARCH_MESSAGES.onlyExcluded);
      const html = await (await get(`/search?${q("<script>alert(1)</script>")}`)).text();
      expect(html).not.toContain("<script>alert(1)</script>");
    });

    it("refuses a text over 200 characters with 400 on the API and a message on the page", async () => {
      const long = "y".repeat(SEARCH_LIMITS.maxQueryLength + 1);
      const api = await get(`/api/search?${q(long)}`);
      expect(api.status).toBe(400);
      expect((await api.json()).message).toMatch(/q: must be at most 200 characters/);
      expect((await get(`/api/search/suggest?${q(long)}`)).status).toBe(400);
      const page = await get(`/search?${q(long)}`);
      expect(page.status).toBe(400);
      expect(await page.text()).toContain(SEARCH_MESSAGES.tooLong);
      // Characters, not UTF-16 units: 200 emoji are within the limit.
      expect((await get(`/api/search?${q("⚾".repeat(SEARCH_LIMITS.maxQueryLength))}`)).status).toBe(200);
    });

    it("answers malformed parameters 400 with a message, and the page leaves them out", async () => {
      for (const query of [
        "q=a&q=b",
        "q=a&team=not-an-id",
        "q=a&category=123",
        "q=a&decade=1975",
        "q=a&decade=seventies",
        "q=a&type=story",
        "q=a&favoriteStory=yes",
        "q=a&sort=random",
        "q=a&page=0",
        "q=a&page=1.5",
        `q=a&page=${SEARCH_LIMITS.maxPage + 1}`,
        "q=a&color=red",
        "q[x]=a",
      ]) {
        const res = await get(`/api/search?${query}`);
        expect(res.status, query).toBe(400);
        expect((await res.json()).message, query).toEqual(expect.any(String));
      }
      expect((await get("/api/search/suggest?q=a&x=1")).status).toBe(400);
      const page = await get(`/search?q=clemente&team=not-an-id&page=zero`);
      expect(page.status).toBe(400);
      const html = await page.text();
      expect(html).toContain(SEARCH_MESSAGES.badFilter);
      expect(html).toContain("Roberto Clemente");
    });
  });

  describe("caching", () => {
    it("never stores search answers in the site (no X-Cache); a cache in front may keep a visitor's for a second", async () => {
      for (const path of ["/search", "/search?q=clemente", "/search.data?q=clemente"]) {
        for (let i = 0; i < 2; i++) {
          const res = await get(path);
          expect(res.status, path).toBe(200);
          expect(res.headers.get("x-cache"), path).toBeNull();
          await res.arrayBuffer();
        }
      }
      // A visitor's stored page does exist, so the cache is on in this server.
      await get("/about");
      expect((await get("/about")).headers.get("x-cache")).toBe("HIT");
      for (const path of ["/api/search?q=clemente", "/api/search/suggest?q=clem"]) {
        const res = await get(path);
        expect(res.headers.get("cache-control"), path).toBe("public, max-age=0, s-maxage=1, stale-if-error=86400");
        expect(res.headers.get("x-cache")).toBeNull();
      }
    });
  });
});

describe.each(drivers.slice(0, 1))("search rate limit on %s", (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { RATE_LIMIT_RELAXED: "false" }, { seed: false });
  }, 120_000);
  afterAll(() => server?.close());

  it("allows 120 searches and suggestions a minute per address, then answers 429 on the API and a message on the page", async () => {
    for (let i = 0; i < 120; i++) {
      const res = await fetch(`${server.url}${i % 2 ? "/api/search/suggest?q=ab" : "/api/search?q=ab"}`);
      expect(res.status, `request ${i + 1}`).toBe(200);
      await res.arrayBuffer();
    }
    const over = await fetch(`${server.url}/api/search?q=ab`);
    expect(over.status).toBe(429);
    expect((await over.json()).message).toBe(SEARCH_MESSAGES.rateLimited);
    const page = await fetch(`${server.url}/search?q=ab`);
    expect(page.status).toBe(429);
    expect(await page.text()).toContain(SEARCH_MESSAGES.rateLimited);
    // Other pages are not searches.
    expect((await fetch(`${server.url}/about`)).status).toBe(200);
  });
});
