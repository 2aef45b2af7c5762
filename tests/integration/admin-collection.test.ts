/**
 * Editing the collection from the console, on both databases: create, edit and delete teams,
 * categories, exhibits, enshrinees and banner slides with an audit row each; deletes refused
 * while something depends on the record; rich text sanitized on the server with the public cut
 * on its plain text; lists paged, sorted and searched; and every change visible on the public
 * site at once, through the catalog cache and the page cache (LISTEN/NOTIFY).
 */
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExhibitView, TeamView } from "~/shared/catalog-types";
import { exhibitPath, teamPath } from "~/shared/exhibit-links";
import { auditLog, bannerSlides, exhibits } from "../../server/db/schema";
import { consoleRequests, createStaffAccount, type StaffAccount } from "../helpers/admin-fixtures";
import { availableDrivers } from "../helpers/databases";
import { dateFromToday } from "../helpers/fixtures";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();

describe.each(drivers)("the collection in the console on %s", (kind) => {
  let server: TestServer;
  let curator: StaffAccount;
  let member: string;
  let team: TeamView;
  const { call, post } = consoleRequests(() => server.url, () => curator);
  const json = async <T>(p: string, cookie?: string) => (await (await call(cookie, p)).json()) as T;
  const idFrom = (response: Response) => /\/([0-9a-f-]{36})\?notice=saved$/.exec(response.headers.get("location") ?? "")![1];
  const audits = (entityId: string) => server.services.database.db.select().from(auditLog).where(eq(auditLog.entityId, entityId)).orderBy(asc(auditLog.at));

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { seed: true, listen: true });
    curator = await createStaffAccount(server.services, "curator");
    member = (await createStaffAccount(server.services, "member", { validThrough: dateFromToday(30) })).cookie;
    [team] = await json<TeamView[]>("/api/teams/");
  }, 180_000);
  afterAll(() => server?.close());

  it("a team edit reaches the cached team page and the API at once, with its audit row", async () => {
    const page = teamPath(team._id);
    await call(undefined, page);
    expect((await call(undefined, page)).headers.get("x-cache")).toBe("HIT");
    await json(`/api/teams/${team._id}`);
    const current = await server.services.admin.collection.teams.get(team._id);
    const saved = await post(`/admin/teams/${team._id}`, {
      name: current!.name,
      league: current!.league,
      logo: current!.logo,
      headline: "A brand new headline from the console",
      description: current!.description,
      sortOrder: String(current!.sortOrder),
    });
    expect(saved.status).toBe(302);
    const html = await (await call(undefined, page)).text();
    expect(html).toContain("A brand new headline from the console");
    expect((await json<TeamView>(`/api/teams/${team._id}`)).headline).toBe("A brand new headline from the console");
    const [entry] = (await audits(team._id)).filter((a) => a.action === "team.update");
    expect(entry.actorEmail).toBe(curator.email);
    expect(entry.before).toMatchObject({ headline: current!.headline });
    expect(entry.after).toMatchObject({ headline: "A brand new headline from the console" });
  });

  let categoryId: string;
  let exhibitId: string;
  let enshrineeId: string;

  it("creates a category, an enshrinee and an exhibit linked to it; rich text is cleaned, the public cut reads plain text", async () => {
    categoryId = idFrom(await post("/admin/categories/new", { categoryName: "Console Tests", sortOrder: "99" }));
    enshrineeId = idFrom(await post("/admin/enshrinees/new", { fullName: "Pat Console", firstName: "Pat", lastName: "Console", biography: "Born in Pittsburgh." }));
    // Warm the catalog cache for this team's exhibits first: the new one must still show.
    await json(`/api/exhibits/?team=${team._id}&active=true`);
    const long = "Word ".repeat(150);
    const created = await post("/admin/exhibits/new", {
      teamId: team._id,
      categoryId,
      title: "The Console Exhibit",
      shortTitle: "Console Exhibit",
      descriptionHtml: `<p onclick="steal()">Bold <strong>move</strong><script>alert('x')</script></p><p><a href="javascript:alert(1)">bad</a> <a href="https://example.org">good</a></p><p>${long}</p><img src=x onerror=alert(1)>`,
      thumbnail: "",
      thumbnailAlt: "",
      matchingPhoto: "",
      matchingPhotoAlt: "",
      active: "on",
      year: "1979",
      enshrineeIds: [enshrineeId],
    });
    expect(created.status).toBe(302);
    exhibitId = idFrom(created);
    const [row] = await server.services.database.db.select().from(exhibits).where(eq(exhibits.id, exhibitId));
    expect(row.descriptionHtml).toContain("<strong>move</strong>");
    expect(row.descriptionHtml).not.toMatch(/script|onclick|onerror|javascript:|<img/i);
    expect(row.description.startsWith("Bold move\n\nbad good\n\nWord Word")).toBe(true);

    const listed = await json<ExhibitView[]>(`/api/exhibits/?team=${team._id}&active=true`);
    expect(listed.map((e) => e._id)).toContain(exhibitId);
    const asMember = await json<ExhibitView>(`/api/exhibits/${exhibitId}`, member);
    expect(asMember.description).toBe(row.description);
    const publicPage = await (await call(member, exhibitPath({ _id: exhibitId, title: "The Console Exhibit", team }))).text();
    expect(publicPage).toContain("Read More");
    expect(publicPage).not.toContain("alert(");
    // The enshrinee's Exhibits and Mentions follow the link.
    const enshrinee = await json<{ exhibits: ExhibitView[] }>(`/api/enshrinees/${enshrineeId}`);
    expect(enshrinee.exhibits.map((e) => e._id)).toEqual([exhibitId]);
    expect((await audits(exhibitId)).map((a) => a.action)).toEqual(["exhibit.create"]);
    // The audit page names the records the exhibit links to, not their ids.
    const auditPage = await (await call(curator.cookie, "/admin/audit?entity=exhibit")).text();
    expect(auditPage).toContain("Pat Console");
    expect(auditPage).toContain("Console Tests");
    expect(auditPage).toContain(team.name);
    expect(auditPage).not.toContain(enshrineeId);
    expect(auditPage).not.toContain(categoryId);

    // A short formatted text is shown formatted to members, rendered on the server; visitors get none of it.
    const short = { ...(await server.services.admin.collection.exhibits.get(exhibitId))! };
    await server.services.admin.collection.exhibits.save({ userId: curator.userId, email: curator.email }, exhibitId, {
      teamId: short.teamId,
      categoryId: short.categoryId,
      title: short.title,
      shortTitle: short.shortTitle,
      descriptionHtml: "<p>A <strong>bold</strong> short text <em>for members</em>.</p>",
      thumbnail: short.thumbnail,
      thumbnailAlt: short.thumbnailAlt,
      matchingPhoto: short.matchingPhoto,
      matchingPhotoAlt: short.matchingPhotoAlt,
      active: short.active,
      year: short.year,
      favoriteStory: short.favoriteStory,
      enshrineeIds: short.enshrineeIds,
    });
    const path = exhibitPath({ _id: exhibitId, title: "The Console Exhibit", team });
    expect(await (await call(member, path)).text()).toContain("<strong>bold</strong> short text <em>for members</em>");
    expect(await (await call(undefined, path)).text()).not.toContain("short text");
  });

  it("refuses deletes while something depends on the record, with a clear message", async () => {
    const category = await post(`/admin/categories/${categoryId}`, { intent: "delete", confirm: "yes" });
    expect(category.status).toBe(409);
    expect(await category.text()).toContain("Console Tests still has 1 exhibit: move or delete them first.");
    const teamDelete = await post(`/admin/teams/${team._id}`, { intent: "delete", confirm: "yes" });
    expect(teamDelete.status).toBe(409);
    const exhibit = await post(`/admin/exhibits/${exhibitId}`, { intent: "delete", confirm: "yes" });
    expect(exhibit.status).toBe(409);
    expect(await exhibit.text()).toContain("is linked to Pat Console: unlink that enshrinee first.");

    // Delete the enshrinee (its links go), then the exhibit, then the empty category.
    expect((await post(`/admin/enshrinees/${enshrineeId}`, { intent: "delete", confirm: "yes" })).headers.get("location")).toBe("/admin/enshrinees?notice=deleted");
    expect((await post(`/admin/exhibits/${exhibitId}`, { intent: "delete", confirm: "yes" })).headers.get("location")).toBe("/admin/exhibits?notice=deleted");
    expect((await post(`/admin/categories/${categoryId}`, { intent: "delete", confirm: "yes" })).headers.get("location")).toBe("/admin/categories?notice=deleted");
    expect((await call(undefined, `/api/exhibits/${exhibitId}`)).status).toBe(404);
    const [deleted] = (await audits(exhibitId)).filter((a) => a.action === "exhibit.delete");
    expect(deleted.before).toMatchObject({ title: "The Console Exhibit" });
    expect(deleted.after).toBeNull();
  });

  it("answers bad input with the field's message and writes nothing", async () => {
    const before = (await server.services.database.db.select().from(auditLog)).length;
    const bad = await post("/admin/exhibits/new", { teamId: team._id, categoryId: "nope", title: "", shortTitle: "Typed Short Title", descriptionHtml: "", year: "1700", thumbnail: "../../etc/passwd", enshrineeIds: [] });
    expect(bad.status).toBe(400);
    const text = await bad.text();
    expect(text).toContain("Please enter a title");
    expect(text).toContain("Year must be at least 1850");
    expect(text).toContain("must be a file of the media folder");
    // What was typed comes back in the form (a page without JavaScript loses nothing).
    expect(text).toContain('value="Typed Short Title"');
    expect((await server.services.database.db.select().from(auditLog)).length).toBe(before);
  });

  it("lists exhibits paged, sorted and searched on the server", async () => {
    const all = await server.services.admin.collection.exhibits.list({ page: 1, pageSize: 1000 });
    const firstPage = await (await call(curator.cookie, "/admin/exhibits?sort=year&dir=desc")).text();
    const newest = [...all.rows].sort((a, b) => b.year - a.year)[0];
    expect(firstPage).toContain(newest.title.replace(/&/g, "&amp;").replace(/'/g, "&#x27;"));
    expect(firstPage).toContain(`Page 1 of ${Math.ceil(all.total / 50)}`);
    const target = all.rows[all.rows.length - 1];
    const searched = await server.services.admin.collection.exhibits.list({ q: target.title.slice(0, 12), page: 1, pageSize: 50 });
    expect(searched.rows.map((r) => r.id)).toContain(target.id);
    const page = await (await call(curator.cookie, `/admin/exhibits?q=${encodeURIComponent(target.title.slice(0, 12))}`)).text();
    expect(page).toContain(`/admin/exhibits/${target.id}`);
    // The user's wildcards are taken literally.
    expect((await server.services.admin.collection.exhibits.list({ q: "%_%", page: 1, pageSize: 50 })).total).toBe(0);
  });

  it("adds, moves and removes home banner slides, audited, and the home page follows at once", async () => {
    const slides = () => server.services.database.db.select().from(bannerSlides).where(eq(bannerSlides.variant, "desktop")).orderBy(asc(bannerSlides.position));
    const before = await slides();
    await call(undefined, "/");
    const added = await post("/admin/banner", { intent: "add", variant: "desktop", file: before[0].file, alt: "A slide added by the console", width: "1600", height: "600" });
    expect(added.status).toBe(200);
    expect(await (await call(undefined, "/")).text()).toContain("A slide added by the console");
    const last = before.length;
    const addedId = (await slides())[last].id;
    await post("/admin/banner", { intent: "up", variant: "desktop", slide: addedId });
    expect((await slides())[last - 1].alt).toBe("A slide added by the console");
    await post("/admin/banner", { intent: "remove", variant: "desktop", slide: addedId, confirm: "yes" });
    expect((await slides()).map((s) => s.alt)).toEqual(before.map((s) => s.alt));
    const entries = await server.services.database.db.select().from(auditLog).where(and(eq(auditLog.entityType, "banner"), eq(auditLog.entityId, "desktop")));
    expect(entries.map((e) => e.action).sort()).toEqual(["banner.add", "banner.move", "banner.remove"]);
    const refused = await post("/admin/banner", { intent: "add", variant: "desktop", file: "exhibits/x.svg", alt: "", width: "0", height: "600" });
    expect(refused.status).toBe(400);
  });
});
