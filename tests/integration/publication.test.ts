/**
 * Drafts and scheduled publishing (decision 032) on both databases: a draft exhibit and
 * a draft enshrinee do not exist for visitors and members anywhere (pages and their loader data,
 * the API, search and suggestions, the sitemap, favorite stories, the enshrinee's Exhibits and
 * Mentions, the team's category buttons, share cards), staff preview still shows them, and a
 * scheduled exhibit appears once its time passes on the injected clock, with nobody saving: the
 * scheduled-publishing loop's run tells the caches.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CategoryView, EnshrineeSummary, EnshrineeView, ExhibitView, TeamView } from "~/shared/catalog-types";
import type { Publication } from "~/shared/publication";
import type { SearchAnswer, Suggestion } from "~/shared/search";
import { categoryPath, enshrineeExhibitPath, enshrineePath, exhibitPath, favoriteStoryPath, teamPath } from "~/shared/exhibit-links";
import { shareCardPath } from "~/shared/share-cards";
import { availableDrivers } from "../helpers/databases";
import { createSignedInAccount, dateFromToday } from "../helpers/fixtures";
import { createStaffAccount, previewPanes, type StaffAccount } from "../helpers/admin-fixtures";
import { startTestServer, type TestServer } from "../helpers/test-server";
import type { Database } from "../../server/db/client";
import { setPublication } from "../../server/catalog/publication";

const drivers = await availableDrivers();
const HOUR = 3_600_000;
const TITLE = "Quillfeather Pennant of the Allegheny";
const SHORT = "Quillfeather Pennant";
const NAME = "Zebediah Quarrington";

describe.each(drivers)("drafts and scheduled publishing on %s", (kind) => {
  let server: TestServer;
  let clock = new Date();
  let member: string;
  let curator: StaffAccount;
  let team: TeamView;
  let category: CategoryView;
  let linked: EnshrineeSummary;
  let exhibitId: string;
  let enshrineeId: string;
  const get = (path: string, cookie?: string) => fetch(`${server.url}${path}`, { headers: cookie ? { cookie } : {} });
  const text = async (path: string, cookie?: string) => (await get(path, cookie)).text();
  const exhibit = () => ({ _id: exhibitId, title: TITLE, team: { _id: team._id } });
  const enshrinee = () => ({ _id: enshrineeId, fullName: NAME });

  async function saveExhibit(publication: Publication) {
    const saved = await server.services.admin.collection.exhibits.save({ userId: curator.userId, email: curator.email }, exhibitId ?? null, {
      teamId: team._id,
      categoryId: category._id,
      title: TITLE,
      shortTitle: SHORT,
      descriptionHtml: "<p>A pennant nobody has seen yet.</p>",
      thumbnail: "",
      thumbnailAlt: "",
      matchingPhoto: null,
      matchingPhotoAlt: null,
      active: true,
      year: 1931,
      favoriteStory: true,
      enshrineeIds: [linked._id],
      publication,
    });
    if (!saved.ok) throw new Error(saved.message);
    exhibitId = saved.id;
  }

  async function saveEnshrinee(publication: Publication) {
    const saved = await server.services.admin.collection.enshrinees.save({ userId: curator.userId, email: curator.email }, enshrineeId ?? null, {
      fullName: NAME,
      firstName: "Zebediah",
      lastName: "Quarrington",
      biography: "A biography nobody has read yet.",
      publication,
    });
    if (!saved.ok) throw new Error(saved.message);
    enshrineeId = saved.id;
  }

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { seed: true, now: () => clock });
    member = (await createSignedInAccount(server.services, { validThrough: dateFromToday(60) })).cookie;
    curator = await createStaffAccount(server.services, "curator");
    const teams = (await (await get("/api/teams/")).json()) as TeamView[];
    const categories = (await (await get("/api/categories")).json()) as CategoryView[];
    const exhibits = (await (await get("/api/exhibits/")).json()) as ExhibitView[];
    // A team and a category without an exhibit yet: the team page's button for it comes with the new one.
    const pair = teams.flatMap((t) => categories.map((c) => [t, c] as const)).find(([t, c]) => !exhibits.some((e) => e.team._id === t._id && e.category._id === c._id));
    if (!pair) throw new Error("every team has every category");
    [team, category] = pair;
    [linked] = (await (await get("/api/enshrinees/")).json()) as EnshrineeSummary[];
    await saveEnshrinee({ state: "draft" });
    await saveExhibit({ state: "draft" });
  }, 120_000);
  afterAll(() => server?.close());

  /** Every channel where the exhibit and the enshrinee could show, as `who` (a cookie or none). */
  async function channels(cookie?: string) {
    const search = async (q: string) => ((await (await get(`/api/search?q=${encodeURIComponent(q)}`, cookie)).json()) as SearchAnswer).results.map((r) => r.title);
    const suggest = async (q: string) => ((await (await get(`/api/search/suggest?q=${encodeURIComponent(q)}`, cookie)).json()) as Suggestion[]).map((s) => s.title);
    const status = async (path: string) => (await get(path, cookie)).status;
    const apiList = (await (await get("/api/exhibits/", cookie)).json()) as ExhibitView[];
    const favorites = (await (await get("/api/exhibits/?favoriteStory=true", cookie)).json()) as ExhibitView[];
    const linkedView = (await (await get(`/api/enshrinees/${linked._id}`, cookie)).json()) as EnshrineeView;
    const wall = (await (await get("/api/enshrinees/", cookie)).json()) as EnshrineeSummary[];
    return {
      exhibitPage: await status(exhibitPath(exhibit())),
      exhibitData: await status(`${exhibitPath(exhibit())}.data`),
      favoritePage: await status(favoriteStoryPath(exhibitId)),
      mentionPage: await status(enshrineeExhibitPath(linked, exhibitId)),
      exhibitApi: await status(`/api/exhibits/${exhibitId}`),
      exhibitCard: await status(shareCardPath({ kind: "exhibits", id: exhibitId })),
      enshrineePage: await status(enshrineePath(enshrinee())),
      enshrineeData: await status(`${enshrineePath(enshrinee())}.data`),
      enshrineeApi: await status(`/api/enshrinees/${enshrineeId}`),
      enshrineeCard: await status(shareCardPath({ kind: "enshrinees", id: enshrineeId })),
      inApiList: apiList.some((e) => e._id === exhibitId),
      inApiFavorites: favorites.some((e) => e._id === exhibitId),
      inFavoritesPage: (await text("/favoritestories", cookie)).includes(SHORT),
      inCategoryPage: (await text(categoryPath(team._id, category._id), cookie)).includes(SHORT),
      teamButton: (await text(teamPath(team._id), cookie)).includes(`href="${categoryPath(team._id, category._id)}"`),
      inLinkedEnshrinee: linkedView.exhibits.some((e) => e._id === exhibitId),
      inLinkedEnshrineePage: (await text(enshrineePath(linked), cookie)).includes(SHORT),
      onWall: wall.some((p) => p._id === enshrineeId),
      onWallPage: (await text("/enshrinees", cookie)).includes(NAME),
      searchExhibit: (await search("Quillfeather")).includes(TITLE),
      searchEnshrinee: (await search("Quarrington")).includes(NAME),
      suggestExhibit: (await suggest("quillf")).includes(TITLE),
      suggestEnshrinee: (await suggest("quarr")).includes(NAME),
      inSitemap: (await text("/sitemap.xml")).includes(exhibitPath(exhibit())),
      enshrineeInSitemap: (await text("/sitemap.xml")).includes(enshrineePath(enshrinee())),
    };
  }

  const absent = {
    exhibitPage: 404,
    exhibitData: 404,
    favoritePage: 404,
    mentionPage: 404,
    exhibitApi: 404,
    exhibitCard: 404,
    enshrineePage: 404,
    enshrineeData: 404,
    enshrineeApi: 404,
    enshrineeCard: 404,
    inApiList: false,
    inApiFavorites: false,
    inFavoritesPage: false,
    inCategoryPage: false,
    teamButton: false,
    inLinkedEnshrinee: false,
    inLinkedEnshrineePage: false,
    onWall: false,
    onWallPage: false,
    searchExhibit: false,
    searchEnshrinee: false,
    suggestExhibit: false,
    suggestEnshrinee: false,
    inSitemap: false,
    enshrineeInSitemap: false,
  };
  const present = Object.fromEntries(Object.entries(absent).map(([k, v]) => [k, v === 404 ? 200 : true]));

  it("keeps a draft out of every channel, for visitors and members, while staff preview shows it", async () => {
    expect(await channels()).toEqual(absent);
    expect(await channels(member)).toEqual(absent);
    const preview = await get(`/admin/exhibits/${exhibitId}/preview`, curator.cookie);
    expect(preview.status).toBe(200);
    const panes = previewPanes(await preview.text());
    expect(panes.visitor).toContain(SHORT);
    expect(panes.member).toContain("A pennant nobody has seen yet.");
    // The console's list says what it is.
    expect(await text("/admin/exhibits?q=Quillfeather", curator.cookie)).toContain("Draft");
  }, 120_000);

  it("keeps a draft banner slide off the home page until it is published", async () => {
    const banner = server.services.admin.collection.banner;
    const actor = { userId: curator.userId, email: curator.email };
    const slide = { variant: "desktop" as const, file: "banners/quillfeather.jpg", alt: "Quillfeather banner slide", width: 1600, height: 600 };
    expect((await banner.edit(actor, "desktop", { kind: "add", slide: { ...slide, publication: { state: "draft" } } })).ok).toBe(true);
    expect(await text("/")).not.toContain(slide.alt);
    expect(await text("/", member)).not.toContain(slide.alt);
    const { desktop } = await banner.list();
    const slideId = desktop.find((s) => s.alt === slide.alt)!.id;
    expect((await banner.edit(actor, "desktop", { kind: "update", slideId, slide: { ...slide, publication: { state: "published" } } })).ok).toBe(true);
    expect(await text("/")).toContain(slide.alt);
    expect((await banner.edit(actor, "desktop", { kind: "remove", slideId })).ok).toBe(true);
  }, 120_000);

  it("keeps a scheduled record out until its time, then shows it everywhere without a save", async () => {
    const at = new Date(clock.getTime() + 2 * HOUR);
    await saveEnshrinee({ state: "scheduled", at });
    await saveExhibit({ state: "scheduled", at });
    expect(await channels(member)).toEqual(absent);
    expect(await text("/admin/exhibits?q=Quillfeather", curator.cookie)).toContain("Scheduled for");

    // The caches are full of the collection without the records; the time passes, nobody saves.
    clock = new Date(at.getTime() + 1000);
    const run = await server.services.publisher.runOnce();
    expect(run.appeared).toBe(2);
    expect(await channels()).toEqual(present);
    expect(await channels(member)).toEqual(present);
    expect(await text("/admin/exhibits?q=Quillfeather", curator.cookie)).not.toContain("Scheduled for");
  }, 120_000);

  it("takes a published record back to a draft at once, from its form or from a bulk action's transaction", async () => {
    await saveExhibit({ state: "draft" });
    // What bulk unpublish does for each record: setPublication inside its transaction, with the change notice.
    const { db } = server.services.database;
    const change = await db.transaction(async (tx) => {
      const t = tx as unknown as Database;
      const result = await setPublication(t, "enshrinee", enshrineeId, { state: "draft" }, clock);
      await server.services.catalogChanges.notify(t);
      return result;
    });
    await server.services.catalogChanges.notify();
    expect(change).toEqual({ before: new Date(clock.getTime() - 1000), after: null });
    expect(await channels()).toEqual(absent);
    expect(await setPublication(db, "enshrinee", "00000000-0000-4000-8000-000000000000", { state: "published" }, clock)).toBeNull();
  }, 120_000);
});
