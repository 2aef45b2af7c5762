/**
 * Edit conflicts (decision 029; merging, decision 050), on both databases:
 * two console saves started from the same version of a record: when they changed different fields
 * (or different paragraphs of a text) the second is merged and saved, saying so; else it is
 * refused with 409, the message and the fields both changed, and writes nothing; saved again with the person's choices ("keep mine" / "take
 * theirs") and the current version, it keeps what they chose. Photo arrangements and text edits
 * of one exhibit race the same way; so do banner slides and staff roles.
 */
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, exhibitPhotos, teams } from "../../server/db/schema";
import { createPhotoTestExhibit, createStaffAccount, type StaffAccount } from "../helpers/admin-fixtures";
import { availableDrivers } from "../helpers/databases";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();

const MESSAGE = "Someone else saved this record while you were editing it. Nothing was saved: choose, field by field, what to keep.";

describe.each(drivers)("edit conflicts on %s", (kind) => {
  let server: TestServer;
  let admin: StaffAccount;
  let curator: StaffAccount;
  const post = (who: StaffAccount, p: string, fields: [string, string][]) =>
    fetch(`${server.url}${p}`, { method: "POST", redirect: "manual", body: new URLSearchParams(fields), headers: { cookie: who.cookie, "content-type": "application/x-www-form-urlencoded" } });
  const call = (who: StaffAccount, p: string) => fetch(`${server.url}${p}`, { redirect: "manual", headers: { cookie: who.cookie } });
  const exhibit = async (id: string) => (await server.services.admin.collection.exhibits.get(id))!;
  /** The exhibit's edit form as the page fills it in, with `changes` typed over it. */
  const exhibitForm = async (id: string, changes: Record<string, string>, version?: number): Promise<[string, string][]> => {
    const x = await exhibit(id);
    const fields: Record<string, string> = {
      teamId: x.teamId,
      categoryId: x.categoryId,
      title: x.title,
      shortTitle: x.shortTitle,
      descriptionHtml: x.descriptionHtml ?? "",
      thumbnail: x.thumbnail,
      thumbnailAlt: x.thumbnailAlt,
      matchingPhoto: x.matchingPhoto ?? "",
      matchingPhotoAlt: x.matchingPhotoAlt ?? "",
      year: String(x.year),
      version: String(version ?? x.version),
      ...changes,
    };
    return [...Object.entries(fields), ...(x.active ? [["active", "on"] as [string, string]] : [])];
  };
  const audits = (id: string) => server.services.database.db.select().from(auditLog).where(eq(auditLog.entityId, id)).orderBy(asc(auditLog.at));

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { seed: true, listen: true });
    admin = await createStaffAccount(server.services, "admin");
    curator = await createStaffAccount(server.services, "curator");
  }, 180_000);
  afterAll(() => server?.close());

  it("merges two saves from one version that changed different fields, saying so; the text's other paragraphs too", async () => {
    const id = await createPhotoTestExhibit(server.services, admin, "Merge Exhibit", 1971);
    const three = "<p>The first paragraph.</p><p>The second paragraph.</p><p>The third paragraph.</p>";
    expect((await post(admin, `/admin/exhibits/${id}`, await exhibitForm(id, { descriptionHtml: three }))).status).toBe(302);
    const start = await exhibit(id);
    expect(start.version).toBe(2);
    // The admin and the curator both opened version 2; the admin changes the year and the third paragraph, the curator the title and the first.
    const adminForm = await exhibitForm(id, { year: "1972", descriptionHtml: three.replace("The third paragraph.", "The third paragraph, the admin's.") });
    const curatorForm = await exhibitForm(id, { title: "Merge Exhibit, Renamed", descriptionHtml: three.replace("The first paragraph.", "The curator rewrote the first paragraph.") });
    expect((await post(admin, `/admin/exhibits/${id}`, adminForm)).status).toBe(302);

    const merged = await post(curator, `/admin/exhibits/${id}`, curatorForm);
    expect(merged.status).toBe(302);
    expect(merged.headers.get("location")).toBe(`/admin/exhibits/${id}?notice=merged`);
    const after = await exhibit(id);
    expect(after).toMatchObject({ title: "Merge Exhibit, Renamed", year: 1972, version: 4 });
    expect(after.descriptionHtml).toBe("<p>The curator rewrote the first paragraph.</p><p>The second paragraph.</p><p>The third paragraph, the admin's.</p>");
    expect(await (await call(curator, `/admin/exhibits/${id}?notice=merged`)).text()).toContain("Saved, together with what someone else saved meanwhile");
  });

  it("refuses only the fields both changed differently, showing a long text's difference word by word, and carries the rest merged; then keeps what each person chose", async () => {
    const id = await createPhotoTestExhibit(server.services, admin, "Conflict Exhibit", 1971);
    const start = await exhibit(id);
    // Both change the title and the same paragraph; only the admin changes the year.
    const adminForm = await exhibitForm(id, { title: "Conflict Exhibit, the admin's", year: "1972", descriptionHtml: "<p>Members-only words about the photos.</p><p>A new sentence.</p>" });
    const curatorForm = await exhibitForm(id, { title: "Conflict Exhibit, Renamed", descriptionHtml: "<p>Members-only words, the curator's.</p>" });
    const first = await post(admin, `/admin/exhibits/${id}`, adminForm);
    expect(first.status).toBe(302);
    const auditsBefore = (await audits(id)).length;

    const second = await post(curator, `/admin/exhibits/${id}`, curatorForm);
    expect(second.status).toBe(409);
    const html = await second.text();
    expect(html).toContain(MESSAGE);
    // The title and the text to choose; the year (only the admin changed it) is already combined, shown as it is now.
    for (const field of ["title", "descriptionHtml"]) expect(html).toContain(`name="resolve:${field}"`);
    for (const field of ["year", "shortTitle", "teamId", "thumbnail"]) expect(html).not.toContain(`name="resolve:${field}"`);
    expect(html).toMatch(/data-testid="conflict-taken"[^>]*>Already combined[^<]*: Year\./);
    expect(html).toMatch(/name="year"[^>]*value="1972"/);
    expect(html).toContain("Conflict Exhibit, Renamed");
    // The text's difference, word by word: the admin's words added, the curator's own removed.
    expect(html).toMatch(/<ins[^>]*>[^<]*A new sentence\.[^<]*<\/ins>/);
    expect(html).toMatch(/<del[^>]*>[^<]*curator[^<]*<\/del>/);
    expect(html).toContain('name="version" value="2"');
    // Nothing written: the record is the admin's, with no new audit row.
    const after = await exhibit(id);
    expect(after).toMatchObject({ title: "Conflict Exhibit, the admin's", year: 1972, version: 2 });
    expect(await audits(id)).toHaveLength(auditsBefore);

    // The curator keeps their title and takes the admin's text, with version 2 (the year as the page shows it now).
    const resolved = await post(curator, `/admin/exhibits/${id}`, [
      ...curatorForm.filter(([k]) => k !== "version" && k !== "year"),
      ["year", "1972"],
      ["version", "2"],
      ["resolve:title", "mine"],
      ["theirs:title", JSON.stringify(after.title)],
      ["resolve:descriptionHtml", "theirs"],
      ["theirs:descriptionHtml", JSON.stringify(after.descriptionHtml)],
    ]);
    expect(resolved.status).toBe(302);
    expect(await exhibit(id)).toMatchObject({ title: "Conflict Exhibit, Renamed", year: 1972, descriptionHtml: after.descriptionHtml, version: 3 });
    void start;
  });

  it("refuses a stale team, category and enshrinee save with 409 and leaves the record as it was", async () => {
    const [team] = await server.services.database.db.select().from(teams).orderBy(asc(teams.sortOrder)).limit(1);
    const teamFields = (headline: string): [string, string][] => [
      ["name", team.name],
      ["league", team.league],
      ["logo", team.logo],
      ["headline", headline],
      ["description", team.description],
      ["sortOrder", String(team.sortOrder)],
      ["version", String(team.version)],
    ];
    expect((await post(admin, `/admin/teams/${team.id}`, teamFields("The admin's headline"))).status).toBe(302);
    const refused = await post(curator, `/admin/teams/${team.id}`, teamFields("The curator's headline"));
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain(MESSAGE);
    expect(await server.services.admin.collection.teams.get(team.id)).toMatchObject({ headline: "The admin's headline", version: team.version + 1 });

    const category = await post(admin, "/admin/categories/new", [["categoryName", "Conflict Category"], ["sortOrder", "5"]]);
    const categoryId = /\/admin\/categories\/([0-9a-f-]{36})/.exec(category.headers.get("location") ?? "")![1];
    expect((await post(admin, `/admin/categories/${categoryId}`, [["categoryName", "Conflict Category A"], ["sortOrder", "5"], ["version", "1"]])).status).toBe(302);
    expect((await post(curator, `/admin/categories/${categoryId}`, [["categoryName", "Conflict Category B"], ["sortOrder", "5"], ["version", "1"]])).status).toBe(409);
    expect(await server.services.admin.collection.categories.get(categoryId)).toMatchObject({ categoryName: "Conflict Category A", version: 2 });

    const person = (biography: string, version = "1", fullName = "Pat Conflict"): [string, string][] => [["fullName", fullName], ["firstName", "Pat"], ["lastName", "Conflict"], ["biography", biography], ["version", version]];
    const created = await post(admin, "/admin/enshrinees/new", person("Born here."));
    const enshrineeId = /\/admin\/enshrinees\/([0-9a-f-]{36})/.exec(created.headers.get("location") ?? "")![1];
    expect((await post(admin, `/admin/enshrinees/${enshrineeId}`, person("Born here. Played here."))).status).toBe(302);
    const stale = await post(curator, `/admin/enshrinees/${enshrineeId}`, person("Born in Pittsburgh."));
    expect(stale.status).toBe(409);
    const html = await stale.text();
    expect(html).toContain('name="resolve:biography"');
    expect(html).not.toContain('name="resolve:fullName"');
    expect(await server.services.admin.collection.enshrinees.get(enshrineeId)).toMatchObject({ biography: "Born here. Played here.", version: 2 });

    // A formatted biography nobody else touched is no conflict: a stale save of the name alone merges.
    expect((await post(admin, `/admin/enshrinees/${enshrineeId}`, person("<p>Born <strong>here</strong>.</p>", "2"))).status).toBe(302);
    const renamed = await post(admin, `/admin/enshrinees/${enshrineeId}`, person("<p>Born <strong>here</strong>.</p>", "3", "Pat Q. Conflict"));
    expect(renamed.status).toBe(302);
    const otherTab = await post(curator, `/admin/enshrinees/${enshrineeId}`, person("<p>Born <strong>here</strong>.</p><p>Coached here.</p>", "3"));
    expect(otherTab.status).toBe(302);
    expect(await server.services.admin.collection.enshrinees.get(enshrineeId)).toMatchObject({ fullName: "Pat Q. Conflict", biographyHtml: "<p>Born <strong>here</strong>.</p><p>Coached here.</p>", version: 5 });
  });

  it("a stale save that differs from the record in no field goes ahead (nothing to lose)", async () => {
    const id = await createPhotoTestExhibit(server.services, admin, "Quiet Exhibit", 1980);
    expect((await post(admin, `/admin/exhibits/${id}`, await exhibitForm(id, { year: "1981" }))).status).toBe(302);
    // The curator's form (version 1) holds the very values saved now.
    expect((await post(curator, `/admin/exhibits/${id}`, await exhibitForm(id, {}, 1))).status).toBe(302);
    expect(await exhibit(id)).toMatchObject({ year: 1981, version: 3 });
  });

  describe("photo arrangement racing a text edit", () => {
    let id: string;
    const files = ["exhibits/race/a.jpg", "exhibits/race/b.jpg"];
    beforeAll(async () => {
      id = await createPhotoTestExhibit(server.services, admin, "Photo Race Exhibit", 1990);
      await server.services.database.db.insert(exhibitPhotos).values(files.map((file, position) => ({ exhibitId: id, position, file, alt: `Photo ${position + 1}` })));
    });
    const arrangement = (version: number, thumbnail: string, alt: string): [string, string][] => [
      ["order", files[1]],
      ["order", files[0]],
      [`alt:${files[0]}`, alt],
      [`alt:${files[1]}`, "Photo 2"],
      ["thumbnail", thumbnail],
      ["matching", ""],
      ["version", String(version)],
    ];

    it("arranging the photos makes a new version: a text edit from before it that changes the thumbnail as well is refused", async () => {
      const textForm = await exhibitForm(id, { thumbnail: files[0], thumbnailAlt: "Photo 1, the curator's", title: "Photo Race, Retitled" });
      const arranged = await post(admin, `/admin/exhibits/${id}/photos`, arrangement(1, files[1], "Photo 1, described"));
      expect(arranged.status).toBe(200);
      expect(await exhibit(id)).toMatchObject({ version: 2, thumbnail: files[1] });

      const refused = await post(curator, `/admin/exhibits/${id}`, textForm);
      expect(refused.status).toBe(409);
      const html = await refused.text();
      // Both changed the thumbnail: a choice; the title only the curator changed: no question about it.
      expect(html).toContain('name="resolve:thumbnail"');
      expect(html).toContain('name="resolve:thumbnailAlt"');
      expect(html).not.toContain('name="resolve:title"');
      const now = await exhibit(id);
      expect(now).toMatchObject({ title: "Photo Race Exhibit", thumbnail: files[1], version: 2 });
      expect(now.photos.map((p) => [p.file, p.alt])).toEqual([
        [files[1], "Photo 2"],
        [files[0], "Photo 1, described"],
      ]);
    });

    it("a text edit makes a new version: an arrangement from before it that differs is refused with 409", async () => {
      const start = (await exhibit(id)).version;
      expect((await post(admin, `/admin/exhibits/${id}`, await exhibitForm(id, { thumbnail: "", thumbnailAlt: "" }))).status).toBe(302);
      const refused = await post(curator, `/admin/exhibits/${id}/photos`, arrangement(start, files[0], "Photo 1, again"));
      expect(refused.status).toBe(409);
      const html = await refused.text();
      expect(html).toContain(MESSAGE);
      expect(html).toContain('name="resolve:thumbnail"');
      expect(html).toContain(`name="resolve:alt:${files[0]}"`);
      expect(await exhibit(id)).toMatchObject({ thumbnail: "", version: start + 1 });
      expect((await exhibit(id)).photos.find((p) => p.file === files[0])!.alt).toBe("Photo 1, described");
      // Removing a photo from the page as it was is refused too.
      const removal = await post(curator, `/admin/exhibits/${id}/photos`, [["remove", files[0]], ["version", String(start)]]);
      expect(removal.status).toBe(409);
      expect((await exhibit(id)).photos).toHaveLength(2);
    });
  });

  it("a banner change from a page showing an older banner is refused; adding a slide is not", async () => {
    const banner = server.services.admin.collection.banner;
    const actor = { userId: admin.userId, email: admin.email };
    const { versions, desktop } = await banner.list();
    expect(desktop.length).toBeGreaterThan(1);
    const added = await banner.edit(actor, "desktop", { kind: "add", slide: { variant: "desktop", file: desktop[0].file, alt: "Another slide", width: 1600, height: 600 } }, versions.desktop);
    expect(added.ok).toBe(true);
    const moved = await banner.edit(actor, "desktop", { kind: "move", slideId: desktop[0].id, by: 1 }, versions.desktop);
    expect(moved).toMatchObject({ ok: false, message: "Someone else changed the desktop banner while you were editing it. Nothing was changed: here it is as it is now; make your change again." });
    const now = await banner.list();
    expect(now.desktop.map((s) => s.alt)).toEqual([...desktop.map((s) => s.alt), "Another slide"]);
    expect(now.versions.mobile).toBe(versions.mobile);
    expect(now.versions.desktop).not.toBe(versions.desktop);
  });

  it("a role change from a page showing another role is refused, saying what it is now, who changed it and when; then keep mine or take theirs", async () => {
    const staff = server.services.admin.staff;
    const other = await createStaffAccount(server.services, "curator");
    const actor = { userId: admin.userId, email: admin.email };
    const second = await createStaffAccount(server.services, "admin");
    expect(await staff.changeRole({ userId: second.userId, email: second.email }, other.userId, "admin", "curator")).toMatchObject({ ok: true });
    // The first admin's page still showed "curator": asking for "curator" again is refused, not silently undone.
    const stale = await staff.changeRole(actor, other.userId, "curator", "curator");
    expect(stale.ok).toBe(false);
    expect(stale.message).toMatch(
      new RegExp(`^Someone else changed the role of ${other.email.replace(/[.+]/g, "\\$&")} while you were looking\\. Nothing was changed: you chose curator; it is now admin \\(changed by ${second.email.replace(/[.+]/g, "\\$&")} at \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} [A-Z]{3,4}\\)\\. Keep yours or take theirs, then change the role\\.$`),
    );
    expect(stale).toMatchObject({ conflict: { version: "admin", fields: [{ field: "role", mine: "curator", theirs: "admin" }] } });
    expect((await staff.list()).find((s) => s.id === other.userId)?.role).toBe("admin");

    // Through the page: the row's form comes back with the choice; "take theirs" keeps admin, "keep mine" makes curator.
    const form = (extra: [string, string][]): [string, string][] => [["intent", "role"], ["userId", other.userId], ["role", "curator"], ...extra];
    const refused = await post(admin, "/admin/staff", form([["version", "curator"]]));
    expect(refused.status).toBe(409);
    const html = await refused.text();
    expect(html).toContain("you chose curator; it is now admin (changed by");
    expect(html).toContain('name="resolve:role"');
    expect(html).toContain(`Role of ${other.email}`);
    const theirs = await post(admin, "/admin/staff", form([["version", "admin"], ["resolve:role", "theirs"], ["theirs:role", JSON.stringify("admin")]]));
    expect(theirs.status).toBe(200);
    expect((await staff.list()).find((s) => s.id === other.userId)?.role).toBe("admin");
    const mine = await post(admin, "/admin/staff", form([["version", "admin"], ["resolve:role", "mine"], ["theirs:role", JSON.stringify("admin")]]));
    expect(mine.status).toBe(200);
    expect((await staff.list()).find((s) => s.id === other.userId)?.role).toBe("curator");
  });

  it("a banner slide's edit against a banner changed since comes back as typed, field by field; keep mine saves it on the same slide wherever it moved", async () => {
    const banner = server.services.admin.collection.banner;
    const start = await banner.list();
    const slide = start.mobile[1];
    const slideForm = (alt: string, version: string, extra: [string, string][] = []): [string, string][] => [
      ["intent", "update"],
      ["variant", "mobile"],
      ["slide", slide.id],
      ["file", slide.file],
      ["alt", alt],
      ["width", String(slide.width)],
      ["height", String(slide.height)],
      ["version", version],
      ...extra,
    ];
    // The admin describes the slide anew, then moves it up; the curator's page still shows the banner before both.
    expect((await post(admin, "/admin/banner", slideForm("The admin description", start.versions.mobile))).status).toBe(200);
    expect((await post(admin, "/admin/banner", [["intent", "up"], ["variant", "mobile"], ["slide", slide.id], ["version", (await banner.list()).versions.mobile]])).status).toBe(200);
    const changed = await banner.list();
    const auditsBefore = (await audits("mobile")).length;

    const refused = await post(curator, "/admin/banner", slideForm("The curator description", start.versions.mobile));
    expect(refused.status).toBe(409);
    const html = await refused.text();
    expect(html).toContain(MESSAGE);
    expect(html).toContain('name="resolve:alt"');
    for (const field of ["file", "width", "height"]) expect(html).not.toContain(`name="resolve:${field}"`);
    expect(html).toContain('value="The curator description"');
    expect(html).toContain("The admin description");
    expect(html).toContain(`name="version" value="${changed.versions.mobile}"`);
    // Nothing written.
    expect((await banner.list()).versions.mobile).toBe(changed.versions.mobile);
    expect(await audits("mobile")).toHaveLength(auditsBefore);

    // Keep mine, with the version now: the curator's words go to that slide, now first.
    const kept = await post(curator, "/admin/banner", slideForm("The curator description", changed.versions.mobile, [["resolve:alt", "mine"], ["theirs:alt", JSON.stringify("The admin description")]]));
    expect(kept.status).toBe(200);
    const now = await banner.list();
    expect(now.mobile.map((s) => [s.id, s.alt])).toEqual(changed.mobile.map((s) => [s.id, s.id === slide.id ? "The curator description" : s.alt]));
    expect(now.mobile[0].id).toBe(slide.id);
  });

  it("a slide's edit after someone removed that slide, and a move from an older banner, are refused plainly, nothing written", async () => {
    const banner = server.services.admin.collection.banner;
    const start = await banner.list();
    const slide = start.mobile[start.mobile.length - 1];
    expect((await post(admin, "/admin/banner", [["intent", "remove"], ["confirm", "yes"], ["variant", "mobile"], ["slide", slide.id], ["version", start.versions.mobile]])).status).toBe(200);
    const after = await banner.list();
    const edit = await post(curator, "/admin/banner", [["intent", "update"], ["variant", "mobile"], ["slide", slide.id], ["file", slide.file], ["alt", "Words for a removed slide"], ["width", String(slide.width)], ["height", String(slide.height)], ["version", start.versions.mobile]]);
    expect(edit.status).toBe(409);
    const html = await edit.text();
    expect(html).toContain("Someone else removed this mobile slide while you were editing it. Nothing was saved: add it again if it is still wanted.");
    expect(html).not.toContain('name="resolve:');
    const move = await post(curator, "/admin/banner", [["intent", "down"], ["variant", "mobile"], ["slide", start.mobile[0].id], ["version", start.versions.mobile]]);
    expect(move.status).toBe(409);
    expect(await move.text()).toContain("Someone else changed the mobile banner while you were editing it. Nothing was changed: here it is as it is now; make your change again.");
    expect((await banner.list()).versions.mobile).toBe(after.versions.mobile);
  });
});
