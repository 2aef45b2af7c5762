/**
 * Media in use (decision 048), on both databases: no original is deleted while a
 * record names it. Removing an exhibit's photo that another exhibit shows as its thumbnail or
 * matching photo, or that an exhibit in the trash names, keeps the file, and those images still
 * answer 200; replacing a portrait an exhibit shows keeps the old file; housekeeping's purge keeps
 * a file a restorable trash entry names. A file nothing else names still goes (404).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enshrinees, mediaObjects, trash } from "../../server/db/schema";
import { createHousekeeping } from "../../server/jobs/housekeeping";
import { createLogger } from "../../server/logger";
import { consoleRequests, createStaffAccount, type StaffAccount } from "../helpers/admin-fixtures";
import { availableDrivers } from "../helpers/databases";
import { dateFromToday } from "../helpers/fixtures";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();
const DAY = 86_400_000;

describe.each(drivers)("media in use on %s", (kind) => {
  let server: TestServer;
  let curator: StaffAccount;
  let member: string;
  let teamId: string;
  let categoryId: string;
  const { call, post } = consoleRequests(() => server.url, () => curator);
  const db = () => server.services.database.db;
  const actor = () => ({ userId: curator.userId, email: curator.email });
  /** Whether the original is stored: in PostgreSQL with DATABASE_URL, on this disk with PGlite. */
  const stored = async (key: string) =>
    kind === "postgres" ? (await db().select({ key: mediaObjects.key }).from(mediaObjects).where(eq(mediaObjects.key, key))).length === 1 : existsSync(path.join(server.config.DATA_DIR, "media", key));
  /** The status of a rendition of `key`, as a member's browser asks for it. */
  const image = async (key: string) => (await call(member, `/images/view/${key}?height=200`, { headers: { accept: "image/jpeg" } })).status;
  const jpeg = (color: string) => sharp({ create: { width: 64, height: 48, channels: 3, background: color } }).jpeg().toBuffer();

  /** A published, active exhibit, optionally showing `thumbnail` and `matching` (files of other records). */
  async function exhibit(title: string, files: { thumbnail?: string; matching?: string } = {}): Promise<string> {
    const saved = await server.services.admin.collection.exhibits.save(actor(), null, {
      teamId,
      categoryId,
      title,
      shortTitle: title.split(" ").slice(0, 2).join(" "),
      descriptionHtml: "<p>Shares its pictures.</p>",
      thumbnail: files.thumbnail ?? "",
      thumbnailAlt: files.thumbnail ? "A borrowed thumbnail" : "",
      matchingPhoto: files.matching ?? null,
      matchingPhotoAlt: files.matching ? "A borrowed matching photo" : null,
      active: true,
      year: 1979,
      favoriteStory: false,
      enshrineeIds: [],
    });
    if (!saved.ok) throw new Error(`could not save ${title}: ${saved.message}`);
    return saved.id;
  }

  /** Uploads photos through the console; returns the exhibit's photo files in order. */
  async function upload(exhibitId: string, colors: string[]): Promise<string[]> {
    const form = new FormData();
    form.append("alt", "A shared photo");
    for (const color of colors) form.append("photos", new Blob([new Uint8Array(await jpeg(color))], { type: "image/jpeg" }), `${color.slice(1)}.jpg`);
    const answer = await call(curator.cookie, `/admin/exhibits/${exhibitId}/photos/upload`, { method: "POST", body: form });
    expect(answer.headers.get("location")).toBe(`/admin/exhibits/${exhibitId}/photos?upload=done`);
    return (await server.services.admin.photos.get(exhibitId))!.photos.map((p) => p.file);
  }

  /** "Remove" on the console's photos page; returns the notice it shows. */
  async function removePhoto(exhibitId: string, file: string): Promise<string> {
    const answer = await post(`/admin/exhibits/${exhibitId}/photos`, { remove: file });
    expect(answer.status).toBe(200);
    return /data-testid="console-notice"[^>]*>([^<]*)</.exec(await answer.text())?.[1] ?? "";
  }

  /** An exhibit with one uploaded photo, and another exhibit showing that photo as its thumbnail. */
  async function sharedPhoto(name: string, color: string) {
    const source = await exhibit(`${name} Source`);
    const [file] = await upload(source, [color]);
    return { source, file, borrower: await exhibit(`${name} Borrower`, { thumbnail: file }) };
  }

  const trashExhibit = async (id: string) => expect((await post(`/admin/exhibits/${id}`, { intent: "delete", confirm: "yes" })).headers.get("location")).toBe("/admin/exhibits?notice=deleted");
  const restore = async (recordId: string) => {
    const [entry] = await db().select().from(trash).where(eq(trash.recordId, recordId));
    return post("/admin/trash", { intent: "restore", entry: entry.id });
  };
  /** The thumbnail address a member's browser gets for an exhibit, fetched. */
  const thumbnailOf = async (id: string) => {
    const view = (await (await call(member, `/api/exhibits/${id}`)).json()) as { thumbnailURL: string };
    return (await call(member, view.thumbnailURL, { headers: { accept: "image/jpeg" } })).status;
  };

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { seed: true, listen: true });
    curator = await createStaffAccount(server.services, "curator");
    member = (await createStaffAccount(server.services, "member", { validThrough: dateFromToday(30) })).cookie;
    const [team] = await server.services.catalog.listTeams();
    teamId = team._id;
    [{ id: categoryId }] = await server.services.admin.collection.categories.options();
  }, 180_000);
  afterAll(() => server?.close());

  it("removing a photo another exhibit shows as its thumbnail or matching photo keeps the original; that exhibit's images still answer 200", async () => {
    const source = await exhibit("Shared Photo Source");
    const [first, second] = await upload(source, ["#a00", "#0a0"]);
    const borrower = await exhibit("Shared Photo Borrower", { thumbnail: second, matching: first });
    expect(await thumbnailOf(borrower)).toBe(200);

    expect(await removePhoto(source, second)).toBe("Photo removed.");
    expect((await server.services.admin.photos.get(source))!.photos.map((p) => p.file)).toEqual([first]);
    expect(await stored(second)).toBe(true);
    expect(await thumbnailOf(borrower)).toBe(200);
    expect(await image(second)).toBe(200);

    expect(await removePhoto(source, first)).toBe("Photo removed.");
    expect(await stored(first)).toBe(true);
    expect(await image(first)).toBe(200);

    // A photo no other record names still goes with its row.
    const [alone] = await upload(source, ["#00a"]);
    expect(await image(alone)).toBe(200);
    expect(await removePhoto(source, alone)).toBe("Photo removed.");
    expect(await stored(alone)).toBe(false);
    expect(existsSync(path.join(server.config.DATA_DIR, "media", alone))).toBe(false);
    expect(await image(alone)).toBe(404);
  });

  it("a photo an exhibit in the trash names stays stored; restored, that exhibit's thumbnail answers 200", async () => {
    const { source, file, borrower } = await sharedPhoto("Trash Share", "#aa0");
    await trashExhibit(borrower);
    expect(await removePhoto(source, file)).toBe("Photo removed.");
    expect(await stored(file)).toBe(true);
    expect((await restore(borrower)).status).toBe(200);
    expect(await thumbnailOf(borrower)).toBe(200);
  });

  it("replacing a portrait an exhibit shows keeps the old file; removing one nothing else names deletes it", async () => {
    const saved = await post("/admin/enshrinees/new", { fullName: "Polly Portrait", firstName: "Polly", lastName: "Portrait", biography: "Posed twice." });
    const id = /\/admin\/enshrinees\/([0-9a-f-]{36})\?notice=saved$/.exec(saved.headers.get("location") ?? "")![1];
    const setPortrait = async (color: string) => {
      const form = new FormData();
      form.append("alt", "Polly Portrait in uniform");
      form.append("portrait", new Blob([new Uint8Array(await jpeg(color))], { type: "image/jpeg" }), "polly.jpg");
      form.append("intent", "save-portrait");
      expect((await call(curator.cookie, `/admin/enshrinees/${id}`, { method: "POST", body: form })).status).toBe(200);
      return (await db().select({ portrait: enshrinees.portrait }).from(enshrinees).where(eq(enshrinees.id, id)))[0].portrait!;
    };
    const old = await setPortrait("#a0a");
    const borrower = await exhibit("Portrait Borrower", { thumbnail: old });
    const replaced = await setPortrait("#0aa");
    expect(replaced).not.toBe(old);
    expect(await stored(old)).toBe(true);
    expect(await thumbnailOf(borrower)).toBe(200);

    const removed = new FormData();
    removed.append("intent", "remove-portrait");
    expect((await call(curator.cookie, `/admin/enshrinees/${id}`, { method: "POST", body: removed })).status).toBe(200);
    expect(await stored(replaced)).toBe(false);
    expect(await image(replaced)).toBe(404);
    expect(await image(old)).toBe(200);
  });

  it("housekeeping's purge keeps a file another trash entry still names, and restoring that entry shows it", async () => {
    const { source, file, borrower } = await sharedPhoto("Purge", "#555");
    await trashExhibit(borrower);
    await trashExhibit(source);
    // The source's entry is past TRASH_DAYS, the borrower's is not.
    await db().update(trash).set({ deletedAt: new Date(Date.now() - 31 * DAY) }).where(eq(trash.recordId, source));
    const run = await createHousekeeping({ database: server.services.database, logger: createLogger("silent"), trash: server.services.admin.trash }).runOnce();
    expect(run).toMatchObject({ ran: true, counts: { trash: 1 } });
    expect(await db().select().from(trash).where(eq(trash.recordId, source))).toEqual([]);
    expect(await stored(file)).toBe(true);
    expect((await restore(borrower)).status).toBe(200);
    expect(await thumbnailOf(borrower)).toBe(200);
  });
});
