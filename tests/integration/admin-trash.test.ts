/**
 * The console's Trash (decision 031), on both databases: deleting asks first; a
 * confirmed delete takes the record off the public site and the API while its photos stay
 * stored; Restore brings it back under the same address with its photos, enshrinee links and
 * favorite-story flag, audited; a restore that needs its team first says so; housekeeping purges
 * entries after TRASH_DAYS (an injected clock), with their media, audited, and not a day before.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { and, asc, eq, ne } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TeamView } from "~/shared/catalog-types";
import { enshrineePath, exhibitPath } from "~/shared/exhibit-links";
import { auditLog, exhibitPhotos, exhibits, mediaObjects, trash } from "../../server/db/schema";
import { createHousekeeping } from "../../server/jobs/housekeeping";
import { createLogger } from "../../server/logger";
import { consoleRequests, createStaffAccount, type StaffAccount } from "../helpers/admin-fixtures";
import { availableDrivers } from "../helpers/databases";
import { dateFromToday } from "../helpers/fixtures";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();
const DAY = 86_400_000;

describe.each(drivers)("the console's trash on %s", (kind) => {
  let server: TestServer;
  let curator: StaffAccount;
  let member: string;
  let team: TeamView;
  let categoryId: string;
  let exhibitId: string;
  const title = "The Trash Can Exhibit";
  const { call, post } = consoleRequests(() => server.url, () => curator);
  const idFrom = async (answer: Promise<Response>) => {
    const response = await answer;
    const id = /\/([0-9a-f-]{36})\?notice=saved$/.exec(response.headers.get("location") ?? "")?.[1];
    if (!id) throw new Error(`not saved (${response.status}): ${(await response.text()).match(/(?:Please|must)[^<]{0,120}/g)?.join(" | ")}`);
    return id;
  };
  const db = () => server.services.database.db;
  const entryOf = async (recordId: string) => (await db().select().from(trash).where(eq(trash.recordId, recordId)))[0];
  const restore = async (recordId: string) => post("/admin/trash", { intent: "restore", entry: (await entryOf(recordId)).id });
  const photoFiles = async (id: string) => (await db().select({ file: exhibitPhotos.file }).from(exhibitPhotos).where(eq(exhibitPhotos.exhibitId, id)).orderBy(asc(exhibitPhotos.position))).map((p) => p.file);
  /** Whether the original is stored: in PostgreSQL with DATABASE_URL, on this disk with PGlite. */
  const stored = async (key: string) =>
    kind === "postgres" ? (await db().select({ key: mediaObjects.key }).from(mediaObjects).where(eq(mediaObjects.key, key))).length === 1 : existsSync(path.join(server.config.DATA_DIR, "media", key));
  const exhibitForm = (fields: Record<string, string>) => ({ teamId: team._id, categoryId, shortTitle: "Trash Can", descriptionHtml: "<p>Kept safe in the trash.</p>", year: "1979", active: "on", thumbnail: "", thumbnailAlt: "", matchingPhoto: "", matchingPhotoAlt: "", ...fields });

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { seed: true, listen: true });
    curator = await createStaffAccount(server.services, "curator");
    member = (await createStaffAccount(server.services, "member", { validThrough: dateFromToday(30) })).cookie;
    [team] = (await (await call(undefined, "/api/teams/")).json()) as TeamView[];
    categoryId = await idFrom(post("/admin/categories/new", { categoryName: "Trash Tests", sortOrder: "98" }));
    exhibitId = await idFrom(post("/admin/exhibits/new", exhibitForm({ title, favoriteStory: "on" })));
    const form = new FormData();
    form.append("alt", "A photo kept in the trash");
    for (const color of ["#a00", "#0a0"]) {
      const bytes = await sharp({ create: { width: 64, height: 48, channels: 3, background: color } }).jpeg().toBuffer();
      form.append("photos", new Blob([new Uint8Array(bytes)], { type: "image/jpeg" }), `${color.slice(1)}.jpg`);
    }
    const uploaded = await call(curator.cookie, `/admin/exhibits/${exhibitId}/photos/upload`, { method: "POST", body: form });
    expect(uploaded.headers.get("location")).toBe(`/admin/exhibits/${exhibitId}/photos?upload=done`);
  }, 180_000);
  afterAll(() => server?.close());

  it("asks first: a delete without the confirmation's second button changes nothing", async () => {
    const asked = await post(`/admin/exhibits/${exhibitId}`, { intent: "delete" });
    expect(asked.status).toBe(302);
    expect(asked.headers.get("location")).toBe(`/admin/exhibits/${exhibitId}?delete=confirm`);
    const page = await (await call(curator.cookie, `/admin/exhibits/${exhibitId}?delete=confirm`)).text();
    expect(page).toContain(`Move ${title} to the trash?`);
    expect(page).toContain("It can be restored from the Trash for 30 days");
    expect((await call(undefined, `/api/exhibits/${exhibitId}`)).status).toBe(200);
    expect(await db().select().from(trash)).toEqual([]);
  });

  it("a confirmed delete takes the exhibit off the site and the API, keeps its photos stored, and lists it in the Trash", async () => {
    const files = await photoFiles(exhibitId);
    expect(files).toHaveLength(2);
    const done = await post(`/admin/exhibits/${exhibitId}`, { intent: "delete", confirm: "yes" });
    expect(done.headers.get("location")).toBe("/admin/exhibits?notice=deleted");
    expect(await (await call(curator.cookie, "/admin/exhibits?notice=deleted")).text()).toContain("Moved to the trash. Restore it from the Trash if that was a mistake.");
    const publicPath = exhibitPath({ _id: exhibitId, title, team });
    expect((await call(member, publicPath)).status).toBe(404);
    expect((await call(undefined, `/api/exhibits/${exhibitId}`)).status).toBe(404);
    expect(await (await call(member, "/favoritestories")).text()).not.toContain(title);
    for (const file of files) expect(await stored(file)).toBe(true);
    const trashPage = await (await call(curator.cookie, "/admin/trash")).text();
    expect(trashPage).toContain(title);
    expect(trashPage).toContain(curator.email);
  });

  it("Restore brings it back at the same address with its photos and favorite-story flag, audited", async () => {
    const restored = await restore(exhibitId);
    expect(restored.status).toBe(200);
    expect(await restored.text()).toContain(`Exhibit ${title} restored.`);
    const publicPath = exhibitPath({ _id: exhibitId, title, team });
    expect((await call(member, publicPath)).status).toBe(200);
    const api = (await (await call(undefined, `/api/exhibits/${exhibitId}`)).json()) as { title: string; favoriteStory: boolean };
    expect(api).toMatchObject({ title, favoriteStory: true });
    expect(await (await call(member, "/favoritestories")).text()).toContain(title);
    expect(await photoFiles(exhibitId)).toHaveLength(2);
    expect(await (await call(curator.cookie, "/admin/trash")).text()).toContain("The trash is empty.");
    const [entry] = await db().select().from(auditLog).where(and(eq(auditLog.entityId, exhibitId), eq(auditLog.action, "exhibit.untrash")));
    expect(entry.actorEmail).toBe(curator.email);
    expect(entry.summary).toBe(`Restored exhibit ${title} from the trash`);
  });

  it("an enshrinee comes back with the links to their exhibits", async () => {
    const enshrineeId = await idFrom(post("/admin/enshrinees/new", { fullName: "Terry Trash", firstName: "Terry", lastName: "Trash", biography: "Born in Pittsburgh." }));
    // Another exhibit of the team than the one the last test deletes (a link would refuse that delete).
    const [seeded] = await db().select({ id: exhibits.id }).from(exhibits).where(and(eq(exhibits.teamId, team._id), ne(exhibits.id, exhibitId))).orderBy(asc(exhibits.id)).limit(1);
    const linked = await server.services.admin.collection.exhibits.get(seeded.id);
    const { photos: _p, id: _i, slug: _s, updatedAt: _u, description: _d, ...fields } = linked!;
    await server.services.admin.collection.exhibits.save({ userId: curator.userId, email: curator.email }, seeded.id, { ...fields, descriptionHtml: fields.descriptionHtml ?? "", enshrineeIds: [...fields.enshrineeIds, enshrineeId] });
    expect((await post(`/admin/enshrinees/${enshrineeId}`, { intent: "delete", confirm: "yes" })).headers.get("location")).toBe("/admin/enshrinees?notice=deleted");
    const page = enshrineePath({ _id: enshrineeId, fullName: "Terry Trash" });
    expect((await call(member, page)).status).toBe(404);
    expect((await restore(enshrineeId)).status).toBe(200);
    expect((await call(member, page)).status).toBe(200);
    expect((await server.services.admin.collection.enshrinees.get(enshrineeId))!.exhibits.map((e) => e.id)).toEqual([seeded.id]);
    // Restored before the exhibit it was linked to: the link waits, and comes back with the exhibit.
    const waiting = await idFrom(post("/admin/exhibits/new", exhibitForm({ title: "A Linked Exhibit", enshrineeIds: enshrineeId })));
    expect((await post(`/admin/enshrinees/${enshrineeId}`, { intent: "delete", confirm: "yes" })).status).toBe(302);
    expect((await post(`/admin/exhibits/${waiting}`, { intent: "delete", confirm: "yes" })).status).toBe(302);
    expect(await (await restore(enshrineeId)).text()).toContain("Enshrinee Terry Trash restored. 1 linked exhibit is in the Trash: that link comes back when it is restored.");
    expect((await server.services.admin.collection.enshrinees.get(enshrineeId))!.exhibits.map((e) => e.id)).toEqual([seeded.id]);
    expect(await (await restore(waiting)).text()).toContain("Exhibit A Linked Exhibit restored.");
    expect(await db().select().from(trash)).toEqual([]);
    const linkedNow = async () => ((await (await call(undefined, `/api/enshrinees/${enshrineeId}`)).json()) as { exhibits: { _id: string }[] }).exhibits.map((e) => e._id).sort();
    expect(await linkedNow()).toEqual([seeded.id, waiting].sort());
    expect(await (await call(member, page)).text()).toContain("A Linked Exhibit");

    // And in the other order: the exhibit first, then the enshrinee.
    expect((await post(`/admin/enshrinees/${enshrineeId}`, { intent: "delete", confirm: "yes" })).status).toBe(302);
    expect((await post(`/admin/exhibits/${waiting}`, { intent: "delete", confirm: "yes" })).status).toBe(302);
    expect(await (await restore(waiting)).text()).toContain("Exhibit A Linked Exhibit restored.");
    expect(await (await restore(enshrineeId)).text()).toContain("Enshrinee Terry Trash restored.");
    expect(await linkedNow()).toEqual([seeded.id, waiting].sort());

    // A link whose exhibit was purged meanwhile cannot come back, and the restore says so.
    expect((await post(`/admin/enshrinees/${enshrineeId}`, { intent: "delete", confirm: "yes" })).status).toBe(302);
    expect((await post(`/admin/exhibits/${waiting}`, { intent: "delete", confirm: "yes" })).status).toBe(302);
    await db().delete(trash).where(eq(trash.recordId, waiting));
    expect(await (await restore(enshrineeId)).text()).toContain("Enshrinee Terry Trash restored. 1 linked exhibit is no longer there, so that link did not come back.");
    expect(await linkedNow()).toEqual([seeded.id]);
  });

  it("an import row cannot take the id of a record in the trash: the dry run names the trash, nothing is created, and Restore still works", async () => {
    const ghost = await idFrom(post("/admin/exhibits/new", exhibitForm({ title: "An Imported Ghost" })));
    expect((await post(`/admin/exhibits/${ghost}`, { intent: "delete", confirm: "yes" })).status).toBe(302);
    const header = "id,title,short_title,team,category,year,active,favorite_story,description,description_html,thumbnail,thumbnail_alt,matching_photo,matching_photo_alt,enshrinees,publish_at";
    const csv = `${header}\n${ghost},A Ghost Overwritten,Ghost,${team.name},Trash Tests,1980,yes,no,Imported over the trash.,,,,,,,\n`;
    const importing = (intent: "check" | "import") => {
      const form = new FormData();
      form.append("intent", intent);
      form.append("file", new Blob([csv], { type: "text/csv" }), "exhibits.csv");
      return call(curator.cookie, "/admin/exhibits/import", { method: "POST", body: form });
    };
    const message = "Row 2, id: An exhibit with this id is in the Trash (An Imported Ghost): restore it from the Trash, or leave the id empty to import this row as a new exhibit.";
    for (const intent of ["check", "import"] as const) {
      const answer = await importing(intent);
      expect(answer.status).toBe(400);
      expect((await answer.text()).replace(/<[^>]+>/g, " ").replace(/\s+/g, " ")).toContain(message);
    }
    expect((await call(undefined, `/api/exhibits/${ghost}`)).status).toBe(404);
    expect(await (await restore(ghost)).text()).toContain("Exhibit An Imported Ghost restored.");
    expect(((await (await call(undefined, `/api/exhibits/${ghost}`)).json()) as { title: string }).title).toBe("An Imported Ghost");

    // The same for enshrinees.
    const person = await idFrom(post("/admin/enshrinees/new", { fullName: "Gus Ghost", firstName: "Gus", lastName: "Ghost", biography: "" }));
    expect((await post(`/admin/enshrinees/${person}`, { intent: "delete", confirm: "yes" })).status).toBe(302);
    const report = await server.services.admin.collectionCsv.check("enshrinees", new TextEncoder().encode(`id,full_name,first_name,last_name\n${person},Gus Overwritten,Gus,Overwritten\n`));
    expect(report.rows).toEqual([{ row: 2, outcome: "error", label: "Gus Overwritten", errors: [{ column: "id", message: "An enshrinee with this id is in the Trash (Gus Ghost): restore it from the Trash, or leave the id empty to import this row as a new enshrinee." }], changes: [] }]);
    expect((await restore(person)).status).toBe(200);
  });

  it("a team with exhibits is still refused; an exhibit whose team is in the trash says to restore the team first", async () => {
    const refused = await post(`/admin/teams/${team._id}`, { intent: "delete", confirm: "yes" });
    expect(refused.status).toBe(409);
    const teamId = await idFrom(post("/admin/teams/new", { name: "Trash Pirates", league: "MLB", logo: "logos/pirates.svg", headline: "Arr", description: "A team for the trash.", sortOrder: "90" }));
    const lonely = await idFrom(post("/admin/exhibits/new", { ...exhibitForm({ title: "A Lonely Exhibit" }), teamId }));
    expect((await post(`/admin/exhibits/${lonely}`, { intent: "delete", confirm: "yes" })).status).toBe(302);
    expect((await post(`/admin/teams/${teamId}`, { intent: "delete", confirm: "yes" })).headers.get("location")).toBe("/admin/teams?notice=deleted");
    const first = await restore(lonely);
    expect(first.status).toBe(409);
    expect(await first.text()).toContain("Restore the team Trash Pirates first.");
    expect((await restore(teamId)).status).toBe(200);
    expect((await restore(lonely)).status).toBe(200);
    expect((await call(undefined, `/api/exhibits/${lonely}`)).status).toBe(200);
  });

  it("a restored record whose name was taken meanwhile gets a free address, as a save would", async () => {
    const first = await idFrom(post("/admin/categories/new", { categoryName: "Trash Twins", sortOrder: "97" }));
    expect((await post(`/admin/categories/${first}`, { intent: "delete", confirm: "yes" })).status).toBe(302);
    const second = await idFrom(post("/admin/categories/new", { categoryName: "Trash Twins", sortOrder: "97" }));
    expect(await (await restore(first)).text()).toContain("Category Trash Twins restored.");
    const restored = await server.services.admin.collection.categories.get(first);
    const taken = await server.services.admin.collection.categories.get(second);
    expect([taken!.slug, restored!.slug]).toEqual(["trash-twins", "trash-twins-2"]);
  });

  it("a banner slide's Remove asks first, naming the slide by its id; Restore puts it back at its place", async () => {
    const list = async () => (await server.services.admin.collection.banner.list()).mobile;
    const slides = async () => (await list()).map((slide) => slide.alt);
    const before = await slides();
    const second = (await list())[1];
    const asked = await post("/admin/banner", { intent: "remove", variant: "mobile", slide: second.id });
    expect(asked.headers.get("location")).toBe(`/admin/banner?remove=${second.id}`);
    expect(await (await call(curator.cookie, `/admin/banner?remove=${second.id}`)).text()).toContain(`Move mobile slide 2 (${before[1]}) to the trash?`);
    expect(await slides()).toEqual(before);
    const removed = await post("/admin/banner", { intent: "remove", variant: "mobile", slide: second.id, confirm: "yes" });
    expect(await removed.text()).toContain("The mobile slide is in the Trash: restore it from there if that was a mistake.");
    expect(await slides()).toEqual(before.filter((_, i) => i !== 1));
    expect((await restore("mobile")).status).toBe(200);
    expect(await slides()).toEqual(before);
  });

  it("Remove from a page showing an older order removes the slide that page showed, and the question names it where it is now", async () => {
    const banner = server.services.admin.collection.banner;
    const { mobile, versions } = await banner.list();
    expect(mobile.length).toBeGreaterThan(2);
    const [first, second] = mobile;
    // The page was opened; then a colleague moved slide 1 down (it is slide 2 now).
    const actor = { userId: curator.userId, email: curator.email };
    expect((await banner.edit(actor, "mobile", { kind: "move", slideId: first.id, by: 1 })).ok).toBe(true);
    // "Remove slide 2" on the old page named `second`, which is slide 1 now.
    const asked = await post("/admin/banner", { intent: "remove", variant: "mobile", slide: second.id, version: versions.mobile });
    expect(asked.headers.get("location")).toBe(`/admin/banner?remove=${second.id}`);
    expect(await (await call(curator.cookie, asked.headers.get("location")!)).text()).toContain(`Move mobile slide 1 (${second.alt}) to the trash?`);
    await post("/admin/banner", { intent: "remove", variant: "mobile", slide: second.id, confirm: "yes" });
    const after = (await banner.list()).mobile;
    expect(after.map((s) => s.id)).toEqual([first.id, ...mobile.slice(2).map((s) => s.id)]);
    // The question for a slide removed meanwhile says so and offers nothing to confirm.
    const gone = await (await call(curator.cookie, `/admin/banner?remove=${second.id}`)).text();
    expect(gone).toContain("That slide no longer exists.");
    expect(gone).not.toContain("to the trash?");
    expect((await restore("mobile")).status).toBe(200);
    expect((await banner.edit(actor, "mobile", { kind: "move", slideId: first.id, by: -1 })).ok).toBe(true);
    expect((await banner.list()).mobile.map((s) => s.id)).toEqual(mobile.map((s) => s.id));
  });

  it("housekeeping purges an entry after 30 days with its photos, audited, and not a day before", async () => {
    const files = await photoFiles(exhibitId);
    expect((await post(`/admin/exhibits/${exhibitId}`, { intent: "delete", confirm: "yes" })).status).toBe(302);
    const deletedAt = (await entryOf(exhibitId)).deletedAt.getTime();
    const housekeepingAt = (at: number) => createHousekeeping({ database: server.services.database, logger: createLogger("silent"), now: () => new Date(at), trash: server.services.admin.trash });
    const early = await housekeepingAt(deletedAt + 29 * DAY).runOnce();
    expect(early).toMatchObject({ ran: true, counts: { trash: 0 } });
    expect(await entryOf(exhibitId)).toBeDefined();
    for (const file of files) expect(await stored(file)).toBe(true);
    const due = await housekeepingAt(deletedAt + 30 * DAY + 60_000).runOnce();
    expect(due).toMatchObject({ ran: true, counts: { trash: 1 } });
    expect(await entryOf(exhibitId)).toBeUndefined();
    for (const file of files) {
      expect(await stored(file)).toBe(false);
      expect(existsSync(path.join(server.config.DATA_DIR, "media", file))).toBe(false);
    }
    const [purged] = await db().select().from(auditLog).where(and(eq(auditLog.entityId, exhibitId), eq(auditLog.action, "exhibit.purge")));
    expect(purged.actorEmail).toBe("housekeeping");
    // (The curator's session is gone too: that housekeeping run was 30 days later.)
    expect((await server.services.admin.trash.list()).map((e) => e.label)).not.toContain(title);
  });
});
