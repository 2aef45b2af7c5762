/**
 * Versions of the collection's records (decision 030), on both databases: each save
 * keeps a version, listed on the edit page with who, when and which fields changed; a version
 * shows its fields; restoring one is a new save (a new version) with its own audit row, and the
 * public site shows the restored values at once. The home banner's versions are per variant.
 */
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TeamView } from "~/shared/catalog-types";
import { exhibitPath } from "~/shared/exhibit-links";
import { auditLog, exhibits } from "../../server/db/schema";
import { createStaffAccount, type StaffAccount } from "../helpers/admin-fixtures";
import { availableDrivers } from "../helpers/databases";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();

/** The museum clock's form of an instant, as the console shows it ("2026-11-25 20:15 EST"). */
/** To the minute; with the seconds when two versions share a minute (two versions never read as one time). */
const MUSEUM_MINUTE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(?::\d{2})? E[SD]T$/;

describe.each(drivers)("record versions on %s", (kind) => {
  let server: TestServer;
  let curator: StaffAccount;
  let team: TeamView;
  let categoryId: string;
  const call = (p: string, init: RequestInit = {}) => fetch(`${server.url}${p}`, { redirect: "manual", ...init, headers: { cookie: curator.cookie, ...(init.headers as Record<string, string>) } });
  const post = (p: string, fields: Record<string, string>) => call(p, { method: "POST", body: new URLSearchParams(fields), headers: { "content-type": "application/x-www-form-urlencoded" } });
  const exhibitForm = (title: string, year: string, text: string) => ({
    teamId: team._id,
    categoryId,
    title,
    shortTitle: "Versions",
    descriptionHtml: `<p>${text}</p>`,
    thumbnail: "",
    thumbnailAlt: "",
    matchingPhoto: "",
    matchingPhotoAlt: "",
    active: "on",
    year,
  });
  const versionsOf = (entity: "team" | "exhibit", id: string) => server.services.admin.versions.list(entity, id);

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { seed: true, listen: true });
    curator = await createStaffAccount(server.services, "curator");
    [team] = (await (await fetch(`${server.url}/api/teams/`)).json()) as TeamView[];
    [{ id: categoryId }] = await server.services.admin.collection.categories.options();
  }, 180_000);
  afterAll(() => server?.close());

  let exhibitId: string;

  it("three saves of an exhibit are three versions, newest first, with who, when and the changed fields", async () => {
    const created = await post("/admin/exhibits/new", exhibitForm("The First Title", "1971", "First words."));
    expect(created.status).toBe(302);
    exhibitId = /\/admin\/exhibits\/([0-9a-f-]{36})\?notice=saved$/.exec(created.headers.get("location") ?? "")![1];
    expect((await post(`/admin/exhibits/${exhibitId}`, exhibitForm("The Second Title", "1971", "First words."))).status).toBe(302);
    expect((await post(`/admin/exhibits/${exhibitId}`, exhibitForm("The Second Title", "1972", "Other words."))).status).toBe(302);

    const versions = await versionsOf("exhibit", exhibitId);
    expect(versions.map((v) => ({ by: v.by, changed: v.changed, created: v.created, current: v.current }))).toEqual([
      { by: curator.email, changed: ["Year", "Text (members only)"], created: false, current: true },
      { by: curator.email, changed: ["Title"], created: false, current: false },
      { by: curator.email, changed: [], created: true, current: false },
    ]);
    for (const v of versions) expect(v.when).toMatch(MUSEUM_MINUTE);

    // The edit page lists them, each linking to its own page.
    const page = await (await call(`/admin/exhibits/${exhibitId}`)).text();
    expect(page).toContain('id="versions-heading"');
    expect(page.match(/data-testid="version"/g)).toHaveLength(3);
    expect(page).toContain("Year, Text (members only)");
    expect(page).toContain("Created");
    for (const v of versions) expect(page).toContain(`href="/admin/exhibits/${exhibitId}/versions/${v.id}"`);
  });

  it("one version's page shows its fields read-only, the changed ones marked", async () => {
    const [, second] = await versionsOf("exhibit", exhibitId);
    const response = await call(`/admin/exhibits/${exhibitId}/versions/${second.id}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Exhibit: The Second Title");
    expect(html).toContain(`by ${curator.email}`);
    expect(html).toContain("Changed: Title");
    expect(html).toContain("First words.");
    expect(html).toContain("Restore this version");
    expect(html).not.toMatch(/<input[^>]+name="title"/);
  });

  it("restoring the first version brings back its values as a new version, audited, and the public page shows it", async () => {
    const [, , first] = await versionsOf("exhibit", exhibitId);
    const restored = await post(`/admin/exhibits/${exhibitId}/versions/${first.id}`, { intent: "restore" });
    expect(restored.status).toBe(302);
    expect(restored.headers.get("location")).toBe(`/admin/exhibits/${exhibitId}?notice=restored`);
    const editPage = await (await call(restored.headers.get("location")!)).text();
    expect(editPage).toContain("Version restored: it is now the current version.");
    expect(editPage).toContain('value="The First Title"');

    const [row] = await server.services.database.db.select().from(exhibits).where(eq(exhibits.id, exhibitId));
    expect({ title: row.title, year: row.year, descriptionHtml: row.descriptionHtml }).toEqual({ title: "The First Title", year: 1971, descriptionHtml: "<p>First words.</p>" });

    const versions = await versionsOf("exhibit", exhibitId);
    expect(versions).toHaveLength(4);
    expect(versions[0]).toMatchObject({ by: curator.email, changed: ["Title", "Year", "Text (members only)"], current: true, note: `Restored the version of ${first.when} by ${curator.email}` });

    const rows = await server.services.database.db.select().from(auditLog).where(and(eq(auditLog.entityType, "exhibit"), eq(auditLog.entityId, exhibitId))).orderBy(asc(auditLog.at));
    expect(rows.map((r) => r.action)).toEqual(["exhibit.create", "exhibit.update", "exhibit.update", "exhibit.update", "exhibit.restore"]);
    expect(rows[4].summary).toBe(`Restored the version of ${first.when} by ${curator.email} (The First Title)`);
    expect(rows[4].actorEmail).toBe(curator.email);

    const publicPage = await (await fetch(`${server.url}${exhibitPath({ _id: exhibitId, title: "The First Title", team })}`)).text();
    expect(publicPage).toContain("The First Title");
    expect(publicPage).not.toContain("The Second Title");
  });

  it("a seeded team's first edit keeps the team as it was, which can be restored", async () => {
    const before = (await server.services.admin.collection.teams.get(team._id))!;
    const saved = await post(`/admin/teams/${team._id}`, { name: before.name, league: before.league, logo: before.logo, headline: "A headline to undo", description: before.description, sortOrder: String(before.sortOrder) });
    expect(saved.status).toBe(302);
    const versions = await versionsOf("team", team._id);
    expect(versions.map((v) => ({ id: v.id, by: v.by, changed: v.changed }))).toEqual([
      { id: versions[0].id, by: curator.email, changed: ["Headline"] },
      { id: "original", by: null, changed: [] },
    ]);
    const page = await (await call(`/admin/teams/${team._id}`)).text();
    expect(page).toContain("As first recorded, before any change in the console");
    expect((await post(`/admin/teams/${team._id}/versions/original`, { intent: "restore" })).status).toBe(302);
    expect((await server.services.admin.collection.teams.get(team._id))!.headline).toBe(before.headline);
    const [newest] = await versionsOf("team", team._id);
    expect(newest.note).toBe("Restored the version from before the first recorded change");
    const publicTeam = (await (await fetch(`${server.url}/api/teams/${team._id}`)).json()) as TeamView;
    expect(publicTeam.headline).toBe(before.headline);
  });

  it("an enshrinee's version keeps the biography's formatting: restoring it brings the formatting back", async () => {
    const person = (biography: string, version?: string) => ({ fullName: "Vera Version", firstName: "Vera", lastName: "Version", biography, ...(version ? { version } : {}) });
    const created = await post("/admin/enshrinees/new", person("<p>Played <strong>shortstop</strong> in <em>1909</em>.</p>"));
    const id = /\/admin\/enshrinees\/([0-9a-f-]{36})/.exec(created.headers.get("location") ?? "")![1];
    expect((await post(`/admin/enshrinees/${id}`, person("Played shortstop.", "1"))).status).toBe(302);
    const versions = await server.services.admin.versions.list("enshrinee", id);
    expect(versions[0].changed).toEqual(["Biography (members only)"]);
    const first = versions[versions.length - 1];
    // The older version's page shows its words, and what differs from the current text word by word.
    const page = await (await call(`/admin/enshrinees/${id}/versions/${first.id}`)).text();
    expect(page).toContain("Difference from the current text");
    expect(page).toMatch(/<del[^>]*>[^<]*1909[^<]*<\/del>/);
    expect(page).not.toContain("&lt;strong&gt;");
    expect((await post(`/admin/enshrinees/${id}/versions/${first.id}`, { intent: "restore" })).status).toBe(302);
    const restored = await server.services.admin.collection.enshrinees.get(id);
    expect(restored?.biographyHtml).toBe("<p>Played <strong>shortstop</strong> in <em>1909</em>.</p>");
  });

  it("unknown versions, another record's version and a post without the restore intent are refused, nothing written", async () => {
    const [current] = await versionsOf("exhibit", exhibitId);
    const [teamVersion] = await versionsOf("team", team._id);
    expect((await call(`/admin/exhibits/${exhibitId}/versions/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await call(`/admin/exhibits/${exhibitId}/versions/not-a-version`)).status).toBe(404);
    expect((await call(`/admin/exhibits/${exhibitId}/versions/${teamVersion.id}`)).status).toBe(404);
    expect((await post(`/admin/exhibits/${exhibitId}/versions/${teamVersion.id}`, { intent: "restore" })).status).toBe(404);
    const refused = await post(`/admin/exhibits/${exhibitId}/versions/${current.id}`, { intent: "other" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Nothing to do: press Restore this version to restore it.");
    const again = await post(`/admin/exhibits/${exhibitId}/versions/${current.id}`, { intent: "restore" });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("This is already the current version: nothing was changed.");
    expect(await versionsOf("exhibit", exhibitId)).toHaveLength(4);
    // The current version offers no restore.
    expect(await (await call(`/admin/exhibits/${exhibitId}/versions/${current.id}`)).text()).toContain("This is the current version.");
  });

  it("the desktop banner keeps a version per change, listed on the banner page; restoring one is a new version, audited, and the home page shows it", async () => {
    const banner = server.services.admin.collection.banner;
    const start = await banner.list();
    const [first, second] = start.desktop;
    const slideForm = (s: typeof first, alt: string, version: string) => ({ intent: "update", variant: "desktop", slide: s.id, file: s.file, alt, width: String(s.width), height: String(s.height), version });
    expect((await post("/admin/banner", slideForm(second, "A description to undo", start.versions.desktop))).status).toBe(200);
    expect((await post("/admin/banner", { intent: "up", variant: "desktop", slide: second.id, version: (await banner.list()).versions.desktop })).status).toBe(200);

    const versions = await server.services.admin.versions.list("banner", "desktop");
    expect(versions.map((v) => ({ id: v.id, by: v.by, changed: v.changed, current: v.current }))).toEqual([
      { id: versions[0].id, by: curator.email, changed: ["Order of the slides"], current: true },
      { id: versions[1].id, by: curator.email, changed: ["Slide 2 description"], current: false },
      { id: "original", by: null, changed: [], current: false },
    ]);
    expect(await server.services.admin.versions.list("banner", "mobile")).toEqual([]);
    const page = await (await call("/admin/banner")).text();
    expect(page).toContain("Versions of the desktop banner");
    expect(page).toContain("Slide 2 description");
    for (const v of versions) expect(page).toContain(`href="/admin/banner/desktop/versions/${v.id}"`);

    expect(await (await fetch(`${server.url}/`)).text()).toContain("A description to undo");
    const original = await call("/admin/banner/desktop/versions/original");
    expect(original.status).toBe(200);
    const html = await original.text();
    expect(html).toContain("Home banner: Desktop banner");
    expect(html).toContain(first.alt);
    expect(html).toContain(second.alt);
    expect(html).not.toContain("A description to undo");

    const restored = await post("/admin/banner/desktop/versions/original", { intent: "restore" });
    expect(restored.status).toBe(302);
    expect(restored.headers.get("location")).toBe("/admin/banner?notice=restored");
    expect(await (await call("/admin/banner?notice=restored")).text()).toContain("Version restored: it is now the current version.");
    const now = await banner.list();
    expect(now.desktop.map((s) => [s.id, s.alt, s.file])).toEqual(start.desktop.map((s) => [s.id, s.alt, s.file]));
    expect(now.versions.desktop).toBe(start.versions.desktop);
    expect(now.versions.mobile).toBe(start.versions.mobile);

    const after = await server.services.admin.versions.list("banner", "desktop");
    expect(after).toHaveLength(4);
    expect(after[0]).toMatchObject({ by: curator.email, current: true, note: "Restored the version from before the first recorded change" });
    expect(after[0].changed).toEqual(["Slide 2 description", "Order of the slides"]);
    const rows = await server.services.database.db.select().from(auditLog).where(and(eq(auditLog.entityType, "banner"), eq(auditLog.entityId, "desktop"))).orderBy(asc(auditLog.at));
    expect(rows.map((r) => r.action)).toEqual(["banner.update", "banner.move", "banner.replace", "banner.restore"]);
    expect(rows[3]).toMatchObject({ actorEmail: curator.email, summary: "Restored the version from before the first recorded change (Desktop banner)" });

    const home = await (await fetch(`${server.url}/`)).text();
    expect(home).not.toContain("A description to undo");
    // A variant that does not exist has no versions.
    expect((await call("/admin/banner/sideways/versions/original")).status).toBe(404);
  });
});
