/**
 * The collection's CSV import and the lists' bulk actions (decision 034), on
 * both databases, through the console's own addresses: the dry run writes nothing and names each
 * bad row by row number and column; the confirm imports every row or none, with one audit row per
 * record; an export imports back into an empty database to the same records; bulk move and
 * favorites change the chosen exhibits with one audit row each. The import changes only what its
 * file says (decision 051): an export imported back changes nothing, a column left out
 * leaves its field, a row changed since the export waits for a tick, plain text over formatted
 * text is an error, and the import checks a record by the console's own schema.
 */
import { and, asc, count, eq, inArray, notInArray, sql } from "drizzle-orm";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enshrineeSchema } from "../../app/routes/admin/console-schemas";
import { auditLog, categories, enshrineeExhibits, enshrinees, exhibits, teams } from "../../server/db/schema";
import { createStaffAccount, type StaffAccount } from "../helpers/admin-fixtures";
import { availableDrivers } from "../helpers/databases";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();

const EXHIBIT_HEADER = "id,title,short_title,team,category,year,active,favorite_story,description,description_html,thumbnail,thumbnail_alt,matching_photo,matching_photo_alt,enshrinees,publish_at,version";

function request(server: TestServer, cookie: string) {
  return (p: string, init: RequestInit = {}) => fetch(`${server.url}${p}`, { redirect: "manual", ...init, headers: { cookie, ...(init.headers as Record<string, string>) } });
}

/** Posts a CSV as the page's upload form does (`intent` check or import). */
function upload(call: ReturnType<typeof request>, p: string, csv: string | Uint8Array<ArrayBuffer>, intent: "check" | "import") {
  const form = new FormData();
  form.append("intent", intent);
  form.append("file", new Blob([typeof csv === "string" ? new TextEncoder().encode(csv) : csv], { type: "text/csv" }), "collection.csv");
  return call(p, { method: "POST", body: form });
}

/** Posts the dry run's confirm form: the file carried again as base64, and the rows changed since the export ticked to apply anyway. */
function confirm(call: ReturnType<typeof request>, p: string, csv: string, overwrite: string[] = []) {
  const form = new FormData();
  form.append("intent", "import");
  form.append("csv", Buffer.from(csv, "utf8").toString("base64"));
  for (const id of overwrite) form.append("overwrite", id);
  return call(p, { method: "POST", body: form });
}

/** Posts an exhibit's edit form as it was opened on `shown` (its version and fields). */
function saveEditForm(call: ReturnType<typeof request>, shown: typeof exhibits.$inferSelect) {
  return call(`/admin/exhibits/${shown.id}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ version: String(shown.version), teamId: shown.teamId, categoryId: shown.categoryId, title: shown.title, shortTitle: shown.shortTitle, year: String(shown.year), descriptionHtml: shown.descriptionHtml ?? "<p>Text.</p>", active: "on", thumbnail: shown.thumbnail ?? "", thumbnailAlt: shown.thumbnailAlt ?? "", matchingPhoto: shown.matchingPhoto ?? "", matchingPhotoAlt: shown.matchingPhotoAlt ?? "" }),
  });
}

/** One CSV line, every cell quoted as RFC 4180 asks. */
const line = (...cells: (string | number)[]) => `${cells.map((c) => `"${String(c).replace(/"/g, '""')}"`).join(",")}\n`;

/** The text a person reads in the page (tags out, entities decoded). */
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");

describe.each(drivers)("CSV import and bulk actions on %s", (kind) => {
  let server: TestServer;
  let curator: StaffAccount;
  let call: ReturnType<typeof request>;
  let team: { id: string; name: string };
  let category: { id: string; name: string };
  let other: { id: string; name: string };
  let existing: typeof exhibits.$inferSelect;
  const db = () => server.services.database.db;
  const exhibitCount = async () => (await db().select({ n: count() }).from(exhibits))[0].n;
  const auditCount = async () => (await db().select({ n: count() }).from(auditLog))[0].n;

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { seed: true });
    curator = await createStaffAccount(server.services, "curator");
    call = request(server, curator.cookie);
    [team] = await db().select({ id: teams.id, name: teams.name }).from(teams).orderBy(asc(teams.sortOrder)).limit(1);
    [category, other] = await db().select({ id: categories.id, name: categories.categoryName }).from(categories).orderBy(asc(categories.sortOrder)).limit(2);
    [existing] = await db().select().from(exhibits).where(eq(exhibits.teamId, team.id)).orderBy(asc(exhibits.title)).limit(1);
    await server.services.admin.collection.enshrinees.save({ userId: curator.userId, email: curator.email }, null, { fullName: "Ima Importer", firstName: "Ima", lastName: "Importer", biography: "" });
  }, 180_000);
  afterAll(() => server?.close());

  it("exports exhibits and enshrinees in the import's columns", async () => {
    const response = await call("/admin/exhibits/export");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    expect(text.startsWith(`${EXHIBIT_HEADER}\r\n`)).toBe(true);
    expect(text).toContain(existing.id);
    const people = await (await call("/admin/enshrinees/export")).text();
    expect(people.split("\r\n")[0]).toBe("id,full_name,first_name,last_name,biography,biography_html,publish_at,version");
    expect(people).toContain(",Ima Importer,Ima,Importer,");
  });

  const good = () => `${EXHIBIT_HEADER}\n${line("", "Imported Pennant", "Pennant", team.name, category.name, 1971, "yes", "no", "A pennant from the 1971 Series.", "", "", "", "", "", "Ima Importer")}`;
  const renamed = (year: string, categoryName: string, favorite: string) => line(existing.id, `${existing.title} (renamed)`, existing.shortTitle, team.name, categoryName, year, "yes", favorite, "Text", "", "", "", "", "", "");
  const withBadRows = () => `${good()}${renamed("19x9", category.name, "no")}${line("", "Bad Team Row", "Short", "No Such Team", category.name, 1980, "maybe", "no", "", "", "", "", "", "", "Nobody Known")}`;

  it("the dry run shows each row's outcome and each error by row and column, and writes nothing", async () => {
    const [exhibitsBefore, auditsBefore] = [await exhibitCount(), await auditCount()];
    const response = await upload(call, "/admin/exhibits/import", withBadRows(), "check");
    expect(response.status).toBe(400);
    const page = textOf(await response.text());
    expect(page).toContain("Checked 3 rows: 1 would be created, 0 would be updated, 0 unchanged, 2 have errors. Nothing has been imported yet.");
    expect(page).toContain("2 Would create Imported Pennant");
    expect(page).toContain("Row 3, year: Year must be a number");
    expect(page).toContain("Row 4, active: must be yes or no");
    expect(page).not.toContain("Row 4, team:");
    expect(page).toContain("Correct the rows marked Error in the file, then check it again.");
    expect(page).not.toContain("Import 3 exhibits");
    expect(await exhibitCount()).toBe(exhibitsBefore);
    expect(await auditCount()).toBe(auditsBefore);

    // Names that match nothing are reported once the row's cells are well formed.
    const names = await upload(call, "/admin/exhibits/import", `${good()}${line("", "Bad Team Row", "Short", "No Such Team", category.name, 1980, "yes", "no", "", "", "", "", "", "", "Nobody Known")}`, "check");
    const namesPage = textOf(await names.text());
    expect(namesPage).toContain("Row 3, team: No team is named “No Such Team”.");
    expect(namesPage).toContain("Row 3, enshrinees: No enshrinee is named “Nobody Known”.");
  });

  it("refuses a file that is not UTF-8 or lacks a column, with a message and nothing written", async () => {
    const latin1 = new Uint8Array([...new TextEncoder().encode(`${EXHIBIT_HEADER}\n,Caf`), 0xe9, ...new TextEncoder().encode(`,C,Team,Category,1990,,,,,,,,,\n`)]);
    const notUtf8 = await upload(call, "/admin/exhibits/import", latin1, "check");
    expect(notUtf8.status).toBe(400);
    expect(textOf(await notUtf8.text())).toContain("The file is not UTF-8 text: save it from the spreadsheet as “CSV UTF-8”.");
    const missing = await upload(call, "/admin/exhibits/import", "title,team\nX,Y\n", "check");
    expect(textOf(await missing.text())).toContain("Missing columns: short_title, category, year.");
  });

  it("a semicolon-separated file (a spreadsheet's CSV where the decimal mark is a comma) is read as the comma one is", async () => {
    const semicolons = (text: string) => text.replace(/","/g, '";"');
    const header = EXHIBIT_HEADER.replace(/,/g, ";");
    const file = `${header}\n${semicolons(line("", "Semicolon Pennant", "Pennant", team.name, category.name, 1971, "yes", "no", "A pennant; from a European spreadsheet.", "", "", "", "", "", "Ima Importer"))}`;
    const checked = await upload(call, "/admin/exhibits/import", file, "check");
    expect(checked.status).toBe(200);
    const page = textOf(await checked.text());
    expect(page).toContain("Checked 1 row: 1 would be created, 0 would be updated, 0 unchanged, 0 have errors. Nothing has been imported yet.");
    expect(page).toContain("2 Would create Semicolon Pennant");
  });

  it("the confirm imports all rows or none, with one audit row per record", async () => {
    const exhibitsBefore = await exhibitCount();
    const refused = await confirm(call, "/admin/exhibits/import", withBadRows());
    expect(refused.status).toBe(400);
    expect(textOf(await refused.text())).toContain("Nothing was imported: 2 rows have errors.");
    expect(await exhibitCount()).toBe(exhibitsBefore);
    expect(await db().select().from(exhibits).where(eq(exhibits.title, "Imported Pennant"))).toEqual([]);

    // Fixed: the second row updates the existing exhibit, the third is left out. With a BOM.
    const fixed = `\ufeff${good()}${renamed("1979", other.name, "yes")}`;
    const checked = await upload(call, "/admin/exhibits/import", fixed, "check");
    expect(checked.status).toBe(200);
    const checkedPage = textOf(await checked.text());
    expect(checkedPage).toContain("Checked 2 rows: 1 would be created, 1 would be updated, 0 unchanged, 0 have errors.");
    expect(checkedPage).toContain(`3 Would update ${existing.title} (renamed)`);
    expect(checkedPage).toContain("Import 2 exhibits");
    expect(await exhibitCount()).toBe(exhibitsBefore);

    const done = await confirm(call, "/admin/exhibits/import", fixed);
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe("/admin/exhibits/import?done=1.1.0.0");
    expect(textOf(await (await call("/admin/exhibits/import?done=1.1.0.0")).text())).toContain("Imported 2 exhibits: 1 created, 1 updated, 0 unchanged.");
    expect(await exhibitCount()).toBe(exhibitsBefore + 1);
    const [created] = await db().select().from(exhibits).where(eq(exhibits.title, "Imported Pennant"));
    expect(created).toMatchObject({ shortTitle: "Pennant", teamId: team.id, categoryId: category.id, year: 1971, active: true, favoriteStory: false, description: "A pennant from the 1971 Series.", descriptionHtml: null });
    const [ima] = await db().select().from(enshrinees).where(eq(enshrinees.fullName, "Ima Importer"));
    expect(await db().select().from(enshrineeExhibits).where(eq(enshrineeExhibits.exhibitId, created.id))).toEqual([{ enshrineeId: ima.id, exhibitId: created.id }]);
    // Search finds the new exhibit by its enshrinee's name (its document rebuilt once, at the end).
    const found = (await db().execute(sql`select names from search_documents where id = ${created.id}`)) as unknown as { rows: { names: string }[] };
    expect(found.rows).toEqual([{ names: "Ima Importer" }]);
    const [updated] = await db().select().from(exhibits).where(eq(exhibits.id, existing.id));
    expect(updated).toMatchObject({ title: `${existing.title} (renamed)`, categoryId: other.id, year: 1979, favoriteStory: true });
    expect(updated.updatedAt.getTime()).toBeGreaterThan(existing.updatedAt.getTime());
    const audits = await db().select().from(auditLog).where(inArray(auditLog.entityId, [created.id, existing.id]));
    expect(audits.map((a) => [a.entityId, a.action, a.summary, a.actorEmail]).sort()).toEqual(
      [
        [created.id, "exhibit.create", "Created exhibit Imported Pennant (CSV import)", curator.email],
        [existing.id, "exhibit.update", `Edited exhibit ${existing.title} (renamed) (CSV import)`, curator.email],
      ].sort(),
    );
    expect(audits.find((a) => a.entityId === existing.id)!.before).toMatchObject({ title: existing.title, year: existing.year });
  });

  it("an export imports back into an empty database to the same records", async () => {
    const exhibitsCsv = await (await call("/admin/exhibits/export")).text();
    const enshrineesCsv = await (await call("/admin/enshrinees/export")).text();
    const empty = await startTestServer(kind, {}, {});
    try {
      // The empty database has the teams and categories (named by the file), nothing else.
      await empty.services.database.db.insert(teams).values(await db().select().from(teams));
      await empty.services.database.db.insert(categories).values(await db().select().from(categories));
      const staff = await createStaffAccount(empty.services, "curator");
      const there = request(empty, staff.cookie);
      expect((await confirm(there, "/admin/enshrinees/import", enshrineesCsv)).status).toBe(303);
      const imported = await confirm(there, "/admin/exhibits/import", exhibitsCsv);
      expect(imported.status).toBe(303);
      // The version counts saves in one database (decision 029); portraits are not in the file.
      const fields = ({ slug: _s, updatedAt: _u, version: _v, ...rest }: typeof exhibits.$inferSelect) => rest;
      const people = ({ slug: _s, updatedAt: _u, version: _v, portrait: _p, portraitAlt: _pa, ...rest }: typeof enshrinees.$inferSelect) => rest;
      const source = (await db().select().from(exhibits).orderBy(asc(exhibits.id))).map(fields);
      const copy = (await empty.services.database.db.select().from(exhibits).orderBy(asc(exhibits.id))).map(fields);
      expect(copy.length).toBe(source.length);
      expect(copy).toEqual(source);
      expect((await empty.services.database.db.select().from(enshrinees).orderBy(asc(enshrinees.id))).map(people)).toEqual((await db().select().from(enshrinees).orderBy(asc(enshrinees.id))).map(people));
      const links = (d: typeof db extends () => infer D ? D : never) => d.select().from(enshrineeExhibits).orderBy(asc(enshrineeExhibits.exhibitId), asc(enshrineeExhibits.enshrineeId));
      expect(await links(empty.services.database.db)).toEqual(await links(db()));
    } finally {
      await empty.close();
    }
  }, 180_000);

  it("bulk actions move exhibits and add them to or remove them from favorite stories, one audit row each", async () => {
    const chosen = await db().select().from(exhibits).where(eq(exhibits.categoryId, category.id)).orderBy(asc(exhibits.id)).limit(2);
    expect(chosen.length).toBe(2);
    const ids = chosen.map((c) => c.id);
    const bulk = (fields: [string, string][]) => call("/admin/exhibits", { method: "POST", body: new URLSearchParams(fields), headers: { "content-type": "application/x-www-form-urlencoded" } });

    const none = await bulk([["action", "move-to-category"], ["category", other.id]]);
    expect(none.status).toBe(400);
    expect(textOf(await none.text())).toContain("Please select at least one row.");
    const noCategory = await bulk([["action", "move-to-category"], ...ids.map((id): [string, string] => ["ids", id])]);
    expect(noCategory.status).toBe(400);
    expect(textOf(await noCategory.text())).toContain("Please choose the category to move the exhibits to.");

    const moved = await bulk([["action", "move-to-category"], ["category", other.id], ...ids.map((id): [string, string] => ["ids", id])]);
    expect(moved.status).toBe(200);
    expect(textOf(await moved.text())).toContain("Moved 2 exhibits to the category.");
    const after = await db().select().from(exhibits).where(inArray(exhibits.id, ids)).orderBy(asc(exhibits.id));
    expect(after.map((a) => a.categoryId)).toEqual([other.id, other.id]);
    expect(after[0].updatedAt.getTime()).toBeGreaterThan(chosen[0].updatedAt.getTime());
    const moves = await db().select().from(auditLog).where(eq(auditLog.action, "exhibit.move-to-category"));
    expect(moves.map((m) => m.entityId).sort()).toEqual(ids);
    expect(moves.find((m) => m.entityId === ids[0])!.before).toMatchObject({ categoryId: category.id });
    expect(moves.find((m) => m.entityId === ids[0])!.after).toMatchObject({ categoryId: other.id });

    await db().update(exhibits).set({ favoriteStory: true }).where(eq(exhibits.id, ids[0]));
    await db().update(exhibits).set({ favoriteStory: false }).where(eq(exhibits.id, ids[1]));
    const added = await bulk([["action", "add-to-favorites"], ...ids.map((id): [string, string] => ["ids", id])]);
    expect(textOf(await added.text())).toContain("Added 1 exhibit to favorite stories (1 already was).");
    expect((await db().select().from(exhibits).where(inArray(exhibits.id, ids))).every((e) => e.favoriteStory)).toBe(true);
    expect((await db().select().from(auditLog).where(eq(auditLog.action, "exhibit.add-to-favorites"))).map((a) => a.entityId)).toEqual([ids[1]]);
    const removed = await bulk([["action", "remove-from-favorites"], ...ids.map((id): [string, string] => ["ids", id])]);
    expect(textOf(await removed.text())).toContain("Removed 2 exhibits from favorite stories.");
    expect((await db().select().from(exhibits).where(inArray(exhibits.id, ids))).some((e) => e.favoriteStory)).toBe(false);
    expect((await db().select().from(auditLog).where(eq(auditLog.action, "exhibit.remove-from-favorites"))).length).toBe(2);

    // The list offers the actions and a checkbox per row in the same form.
    const list = await (await call("/admin/exhibits")).text();
    expect(list).toContain('<option value="move-to-category">Move to category</option>');
    expect(list).toMatch(/<input type="checkbox" form="bulk-actions" aria-label="Select [^"]+" class="h-4 w-4" name="ids" value="[0-9a-f-]{36}"\/>/);
  });

  it("bulk actions make drafts and publish exhibits and enshrinees, and move them to the trash after asking: a refused row is named and the rest go; Undo brings them back", async () => {
    const bulkOn = (list: string, fields: [string, string][]) => call(list, { method: "POST", body: new URLSearchParams(fields), headers: { "content-type": "application/x-www-form-urlencoded" } });
    // Two exhibits no enshrinee links (those could not go to the trash).
    const linkedIds = db().select({ id: enshrineeExhibits.exhibitId }).from(enshrineeExhibits);
    const chosen = await db().select().from(exhibits).where(and(eq(exhibits.teamId, team.id), notInArray(exhibits.id, linkedIds))).orderBy(asc(exhibits.id)).limit(2);
    expect(chosen.length).toBe(2);
    const ids = chosen.map((c) => c.id);
    const rows = ids.map((id): [string, string] => ["ids", id]);
    const publicStatus = async (id: string) => (await fetch(`${server.url}/api/exhibits/${id}`)).status;
    expect(await publicStatus(ids[0])).toBe(200);

    const drafted = await bulkOn("/admin/exhibits", [["action", "unpublish"], ...rows]);
    expect(textOf(await drafted.text())).toContain("Made 2 exhibits drafts.");
    expect((await db().select().from(exhibits).where(inArray(exhibits.id, ids))).map((e) => e.publishAt)).toEqual([null, null]);
    expect(await publicStatus(ids[0])).toBe(404);
    expect((await db().select().from(auditLog).where(eq(auditLog.action, "exhibit.unpublish"))).map((a) => a.entityId).sort()).toEqual([...ids].sort());
    const published = await bulkOn("/admin/exhibits", [["action", "publish"], ...rows]);
    expect(textOf(await published.text())).toContain("Published 2 exhibits.");
    expect(await publicStatus(ids[0])).toBe(200);

    // The enshrinee list offers the same; a draft enshrinee leaves the Wall of Fame.
    const [ima] = await db().select().from(enshrinees).where(eq(enshrinees.fullName, "Ima Importer"));
    const enshrineeList = await (await call("/admin/enshrinees")).text();
    expect(enshrineeList).toContain('<option value="unpublish">Make a draft (unpublish)</option>');
    const imaDrafted = await bulkOn("/admin/enshrinees", [["action", "unpublish"], ["ids", ima.id]]);
    expect(textOf(await imaDrafted.text())).toContain("Made 1 enshrinee drafts.");
    expect(JSON.stringify(await (await fetch(`${server.url}/api/enshrinees/`)).json())).not.toContain("Ima Importer");

    // Moving to the trash asks first, naming the rows; nothing moves until the second post.
    const [linked] = await db().select({ id: enshrineeExhibits.exhibitId, title: exhibits.title }).from(enshrineeExhibits).innerJoin(exhibits, eq(exhibits.id, enshrineeExhibits.exhibitId)).limit(1);
    const asked = await bulkOn("/admin/exhibits", [["action", "move-to-trash"], ...rows, ["ids", linked.id]]);
    expect(asked.status).toBe(200);
    const question = textOf(await asked.text());
    expect(question).toContain("Move these 3 exhibits to the trash?");
    for (const c of [...chosen.map((c) => c.title), linked.title]) expect(question).toContain(c);
    expect((await db().select().from(exhibits).where(inArray(exhibits.id, [...ids, linked.id]))).length).toBe(3);
    // One exhibit an enshrinee still links stays, named with its reason; the others go.
    const trashed = await bulkOn("/admin/exhibits", [["action", "move-to-trash"], ["confirm", "yes"], ...rows, ["ids", linked.id]]);
    expect(trashed.status).toBe(200);
    const trashedHtml = await trashed.text();
    const answer = textOf(trashedHtml);
    expect(answer).toContain("Moved 2 exhibits to the trash.");
    expect(answer).toMatch(new RegExp(`Left as it was: ${linked.title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: .* unlink (that enshrinee|those enshrinees) first`));
    expect((await db().select().from(exhibits).where(inArray(exhibits.id, ids))).length).toBe(0);
    expect((await db().select().from(exhibits).where(eq(exhibits.id, linked.id))).length).toBe(1);
    expect(await publicStatus(ids[0])).toBe(404);
    // Each one is in the Trash with its own audit row, and comes back from there.
    const trashPage = textOf(await (await call("/admin/trash")).text());
    for (const c of chosen) expect(trashPage).toContain(c.title);
    expect((await db().select().from(auditLog).where(and(eq(auditLog.action, "exhibit.delete"), inArray(auditLog.entityId, ids)))).length).toBe(2);
    // Undo brings both back at once, from the answer's Undo button.
    const batch = /name="batch" value="([0-9a-f-]{36})"/.exec(trashedHtml)![1];
    expect(textOf(await (await bulkOn("/admin/exhibits", [["intent", "undo"], ["batch", batch]])).text())).toContain("Undone: 2 exhibits put back as they were.");
    expect((await db().select().from(exhibits).where(inArray(exhibits.id, ids))).length).toBe(2);
    expect(await publicStatus(ids[0])).toBe(200);
    // An Apply that changed nothing offers nothing to undo.
    expect(await (await bulkOn("/admin/exhibits", [["action", "publish"], ["ids", linked.id]])).text()).not.toContain('name="batch"');
  });

  it("a bulk action makes a new version of each record, so a form opened before it cannot undo it; Undo puts the records back unless changed since", async () => {
    const bulkOn = (fields: [string, string][], list = "/admin/exhibits") => call(list, { method: "POST", body: new URLSearchParams(fields), headers: { "content-type": "application/x-www-form-urlencoded" } });
    const chosen = await db().select().from(exhibits).where(and(eq(exhibits.teamId, team.id), eq(exhibits.favoriteStory, false))).orderBy(asc(exhibits.id)).limit(3);
    expect(chosen.length).toBe(3);
    const rows = chosen.map((c): [string, string] => ["ids", c.id]);
    const added = await bulkOn([["action", "add-to-favorites"], ...rows]);
    const html = await added.text();
    expect(textOf(html)).toContain("Added 3 exhibits to favorite stories.");
    const after = await db().select().from(exhibits).where(inArray(exhibits.id, chosen.map((c) => c.id))).orderBy(asc(exhibits.id));
    expect(after.map((a) => a.version)).toEqual(chosen.map((c) => c.version + 1));
    // The edit form opened before the bulk action (its version) is merged with it, not saved over it: the favorite mark stays.
    const before = chosen[2];
    const stale = await saveEditForm(call, before);
    expect(stale.status).toBe(302);
    expect(stale.headers.get("location")).toMatch(/\?notice=merged$/);
    expect((await db().select().from(exhibits).where(eq(exhibits.id, before.id)))[0].favoriteStory).toBe(true);

    // Undo: the records changed since (their version moved on: a hand-made change, the merged save) stay as they are, named; the other is put back.
    const batch = /name="batch" value="([0-9a-f-]{36})"/.exec(html)![1];
    await db().update(exhibits).set({ version: sql`${exhibits.version} + 1` }).where(eq(exhibits.id, chosen[1].id));
    const undone = textOf(await (await bulkOn([["intent", "undo"], ["batch", batch]])).text());
    expect(undone).toContain("Undone: 1 exhibit put back as it was.");
    for (const changed of [chosen[1], chosen[2]]) expect(undone).toContain(`${changed.title}: Someone changed it since: it was left as it is.`);
    const now = await db().select().from(exhibits).where(inArray(exhibits.id, chosen.map((c) => c.id))).orderBy(asc(exhibits.id));
    expect(now.map((e) => e.favoriteStory)).toEqual([false, true, true]);
    expect(textOf(await (await bulkOn([["intent", "undo"], ["batch", batch]])).text())).toContain("That action was undone already.");
    expect((await bulkOn([["intent", "undo"], ["batch", "00000000-0000-4000-8000-000000000000"]])).status).toBe(400);
  });

  it("applies to all that match the list's search, refusing more than one Apply takes", async () => {
    const bulkOn = (list: string, fields: [string, string][]) => call(list, { method: "POST", body: new URLSearchParams(fields), headers: { "content-type": "application/x-www-form-urlencoded" } });
    const matching = await db().select().from(exhibits).where(eq(exhibits.categoryId, other.id));
    expect(matching.length).toBeGreaterThan(0);
    const moved = await bulkOn(`/admin/exhibits?category=${other.id}`, [["scope", "matching"], ["action", "move-to-category"], ["category", category.id]]);
    expect(textOf(await moved.text())).toContain(`Moved ${matching.length} exhibit${matching.length === 1 ? "" : "s"} to the category.`);
    expect(await db().$count(exhibits, eq(exhibits.categoryId, other.id))).toBe(0);
    // The list offers it, with the count.
    const list = textOf(await (await call(`/admin/exhibits?category=${category.id}`)).text());
    expect(list).toMatch(/All \d+ that match this search/);
  });

  // ---- imports that change only what they say (decision 051) ----------------------

  const actor = () => ({ userId: curator.userId, email: curator.email });
  /** An export's rows as cells (header first), and a file written from such rows. */
  const rowsOf = (csv: string) => parse(csv, { bom: true }) as string[][];
  const fileOf = (rows: string[][]) => rows.map((r) => line(...r)).join("");
  /** The export's header and the row of one record, with some cells changed. */
  async function exportedRow(list: "exhibits" | "enshrinees", id: string, changes: Record<string, string> = {}) {
    const [header, ...rows] = rowsOf(await (await call(`/admin/${list}/export`)).text());
    const row = rows.find((r) => r[0] === id)!;
    return [header, header.map((column, i) => changes[column] ?? row[i])];
  }
  const namesOf = async (e: typeof exhibits.$inferSelect) => ({
    team: (await db().select().from(teams).where(eq(teams.id, e.teamId)))[0].name,
    category: (await db().select().from(categories).where(eq(categories.id, e.categoryId)))[0].categoryName,
  });
  const exhibitById = async (id: string) => (await db().select().from(exhibits).where(eq(exhibits.id, id)))[0];

  it("an export imported back unchanged changes nothing: every row unchanged, no version, no audit row; portraits, formatted texts and drafts kept", async () => {
    await server.services.admin.collection.enshrinees.save(actor(), null, { fullName: "Fran Formatted", firstName: "Fran", lastName: "Formatted", biography: "<p>Born in <strong>Pittsburgh</strong>.</p><ul><li>Hall of Fame</li></ul>" });
    const [fran] = await db().select().from(enshrinees).where(eq(enshrinees.fullName, "Fran Formatted"));
    await db().update(enshrinees).set({ portrait: "portraits/fran-formatted.jpg", portraitAlt: "Fran Formatted smiling", publishAt: null }).where(eq(enshrinees.id, fran.id));
    const snapshot = async () => ({ exhibits: await db().select().from(exhibits).orderBy(asc(exhibits.id)), enshrinees: await db().select().from(enshrinees).orderBy(asc(enshrinees.id)), links: await db().select().from(enshrineeExhibits).orderBy(asc(enshrineeExhibits.exhibitId), asc(enshrineeExhibits.enshrineeId)) });
    const before = await snapshot();
    const audits = await auditCount();
    for (const [list, n] of [["exhibits", before.exhibits.length], ["enshrinees", before.enshrinees.length]] as const) {
      const file = await (await call(`/admin/${list}/export`)).text();
      const checked = await upload(call, `/admin/${list}/import`, file, "check");
      expect(checked.status).toBe(200);
      const page = textOf(await checked.text());
      expect(page).toContain(`Checked ${n} rows: 0 would be created, 0 would be updated, ${n} unchanged, 0 have errors. Nothing has been imported yet.`);
      expect(page).toContain("Nothing to import: every row is as the collection has it.");
      expect(page).not.toContain("Would update");
      const done = await confirm(call, `/admin/${list}/import`, file);
      expect(done.status).toBe(303);
      expect(done.headers.get("location")).toBe(`/admin/${list}/import?done=0.0.${n}.0`);
    }
    expect(await snapshot()).toEqual(before);
    expect((await db().select().from(enshrinees).where(eq(enshrinees.id, fran.id)))[0]).toMatchObject({ portrait: "portraits/fran-formatted.jpg", portraitAlt: "Fran Formatted smiling", publishAt: null, biography: "Born in Pittsburgh.\n\n• Hall of Fame" });
    expect(await auditCount()).toBe(audits);
  });

  it("a file with some columns changes only those fields, shows each change's old and new value, and bumps the version so a form opened before cannot save over it", async () => {
    const [link] = await db().select().from(enshrineeExhibits).orderBy(asc(enshrineeExhibits.exhibitId)).limit(1);
    await db()
      .update(exhibits)
      .set({ active: false, favoriteStory: true, publishAt: null, description: "Bold words.", descriptionHtml: "<p><strong>Bold</strong> words.</p>", thumbnail: "exhibits/kept/thumb.jpg", thumbnailAlt: "A kept thumbnail" })
      .where(eq(exhibits.id, link.exhibitId));
    const shown = await exhibitById(link.exhibitId);
    const links = await db().select().from(enshrineeExhibits).where(eq(enshrineeExhibits.exhibitId, shown.id)).orderBy(asc(enshrineeExhibits.enshrineeId));
    const { team: teamName, category: categoryName } = await namesOf(shown);
    const file = `id,title,short_title,team,category,year\n${line(shown.id, `${shown.title} (new title)`, shown.shortTitle, teamName, categoryName, shown.year)}`;
    const checked = await upload(call, "/admin/exhibits/import", file, "check");
    expect(checked.status).toBe(200);
    const page = textOf(await checked.text());
    expect(page).toContain("Checked 1 row: 0 would be created, 1 would be updated, 0 unchanged, 0 have errors.");
    expect(page).toContain(`2 Would update ${shown.title} (new title) title: “${shown.title}” → “${shown.title} (new title)”`);
    expect(page).not.toContain("short_title: “");
    expect(page).toContain("Import 1 exhibit");
    const audits = await auditCount();
    const done = await confirm(call, "/admin/exhibits/import", file);
    expect(done.headers.get("location")).toBe("/admin/exhibits/import?done=0.1.0.0");
    const after = await exhibitById(shown.id);
    expect(after).toEqual({ ...shown, title: `${shown.title} (new title)`, slug: after.slug, updatedAt: after.updatedAt, version: shown.version + 1 });
    expect(await db().select().from(enshrineeExhibits).where(eq(enshrineeExhibits.exhibitId, shown.id)).orderBy(asc(enshrineeExhibits.enshrineeId))).toEqual(links);
    expect(await auditCount()).toBe(audits + 1);
    // The edit form opened before the import does not save over it: merged with it (decision 050), the import's title kept.
    const stale = await saveEditForm(call, shown);
    expect(stale.status).toBe(302);
    expect(stale.headers.get("location")).toMatch(/\?notice=merged$/);
    expect((await exhibitById(shown.id)).title).toBe(`${shown.title} (new title)`);
    // A new record from such a file starts as the console's "new" form: Active, published.
    const created = await confirm(call, "/admin/exhibits/import", `id,title,short_title,team,category,year\n${line("", "Columns Only Pennant", "Pennant", teamName, categoryName, 1960)}`);
    expect(created.headers.get("location")).toBe("/admin/exhibits/import?done=1.0.0.0");
    expect((await db().select().from(exhibits).where(eq(exhibits.title, "Columns Only Pennant")))[0]).toMatchObject({ active: true, favoriteStory: false, publishAt: new Date(0), version: 1 });
  });

  it("a row whose record changed since the export is flagged and left as it is unless ticked to apply anyway", async () => {
    const [target] = await db().select().from(exhibits).orderBy(asc(exhibits.id)).limit(1);
    const file = fileOf(await exportedRow("exhibits", target.id, { short_title: "Short from the file" }));
    // A colleague saves the exhibit in the console after the export.
    const colleague = await saveEditForm(call, { ...target, title: "Title from the console" });
    expect(colleague.status).toBe(302);
    const edited = await exhibitById(target.id);
    expect(edited.version).toBe(target.version + 1);

    const checked = await upload(call, "/admin/exhibits/import", file, "check");
    expect(checked.status).toBe(200);
    const html = await checked.text();
    const page = textOf(html);
    expect(page).toContain("Checked 1 row: 0 would be created, 0 would be updated, 0 unchanged, 1 changed since the export (left as it is unless ticked), 0 have errors.");
    expect(page).toContain("2 Changed since the export");
    expect(page).toContain(`title: “Title from the console” → “${target.title}”`);
    expect(page).toContain(`short_title: “${target.shortTitle}” → “Short from the file”`);
    expect(page).toContain("Apply row 2 anyway, over the change made since the export");
    expect(html).toContain(`name="overwrite" value="${target.id}"`);

    const left = await confirm(call, "/admin/exhibits/import", file);
    expect(left.headers.get("location")).toBe("/admin/exhibits/import?done=0.0.0.1");
    expect(textOf(await (await call("/admin/exhibits/import?done=0.0.0.1")).text())).toContain("Imported 0 exhibits: 0 created, 0 updated, 0 unchanged. 1 changed since the export was left as it is.");
    expect(await exhibitById(target.id)).toEqual(edited);

    const applied = await confirm(call, "/admin/exhibits/import", file, [target.id]);
    expect(applied.headers.get("location")).toBe("/admin/exhibits/import?done=0.1.0.0");
    expect(await exhibitById(target.id)).toMatchObject({ title: target.title, shortTitle: "Short from the file", version: edited.version + 1 });
  });

  it("a plain description edited over a text formatted in the console is an error for its row, and nothing is written", async () => {
    const [target] = await db().select().from(exhibits).orderBy(asc(exhibits.title)).limit(1);
    await db().update(exhibits).set({ description: "Bold words.", descriptionHtml: "<p><strong>Bold</strong> words.</p>" }).where(eq(exhibits.id, target.id));
    const before = await exhibitById(target.id);
    const message = "This text is formatted in the console and the plain description cell cannot carry its formatting: make the change in description_html, or empty description_html to replace the text with plain text.";
    for (const file of [fileOf(await exportedRow("exhibits", target.id, { description: "Plain words, edited." })), `id,description\n${line(target.id, "Plain words, edited.")}`]) {
      const checked = await upload(call, "/admin/exhibits/import", file, "check");
      expect(checked.status).toBe(400);
      expect(textOf(await checked.text())).toContain(`Row 2, description: ${message}`);
      const refused = await confirm(call, "/admin/exhibits/import", file);
      expect(refused.status).toBe(400);
      expect(textOf(await refused.text())).toContain("Nothing was imported: 1 row has errors.");
    }
    expect(await exhibitById(target.id)).toEqual(before);
    // Changed in the formatted cell, it is taken, with its plain text.
    const done = await confirm(call, "/admin/exhibits/import", fileOf(await exportedRow("exhibits", target.id, { description_html: "<p><em>New</em> words.</p>" })));
    expect(done.headers.get("location")).toBe("/admin/exhibits/import?done=0.1.0.0");
    expect(await exhibitById(target.id)).toMatchObject({ description: "New words.", descriptionHtml: "<p><em>New</em> words.</p>" });
    // An empty plain cell beside the formatted one (a hand-made file) says nothing: the row is unchanged, not an error.
    const blankPlain = await upload(call, "/admin/exhibits/import", `id,description,description_html\n${line(target.id, "", "<p><em>New</em> words.</p>")}`, "check");
    expect(blankPlain.status).toBe(200);
    expect(textOf(await blankPlain.text())).toContain("0 would be updated, 1 unchanged, 0 have errors.");
  });

  it("the import checks a record with the console's schema: a biography the console takes is taken, a longer one refused with the console's message", async () => {
    const long = "Word ".repeat(9000).trim();
    const taken = await confirm(call, "/admin/enshrinees/import", `full_name,first_name,last_name,biography\n${line("Lena Long", "Lena", "Long", long)}`);
    expect(taken.headers.get("location")).toBe("/admin/enshrinees/import?done=1.0.0.0");
    expect((await db().select().from(enshrinees).where(eq(enshrinees.fullName, "Lena Long")))[0].biography).toBe(long);
    const tooLong = "x".repeat(50_001);
    const consoleMessage = enshrineeSchema.safeParse({ fullName: "Lena Longer", firstName: "Lena", lastName: "Longer", biography: tooLong }).error!.issues[0].message;
    for (const column of ["biography", "biography_html"]) {
      const refused = await upload(call, "/admin/enshrinees/import", `full_name,first_name,last_name,${column}\n${line("Lena Longer", "Lena", "Longer", tooLong)}`, "check");
      expect(refused.status).toBe(400);
      expect(textOf(await refused.text())).toContain(`Row 2, ${column}: ${consoleMessage}`);
    }
  });
});
