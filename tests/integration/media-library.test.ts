/**
 * The media library (decision 061), on both databases: /admin/media lists every original the
 * media store holds with its pixel and file size and the records using it; several files upload
 * at once (a bad one is named with its reason, the good ones are saved); a description is edited
 * and the "without a description" filter finds the others; an image in use cannot be deleted
 * (409, saying where), an unused one is (and its file is gone); a banner slide's width and height
 * are read from its file, whatever was posted; the picker page hands the chosen image back to the
 * form without JavaScript.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bannerSlides, exhibits, mediaLibrary, mediaObjects } from "../../server/db/schema";
import { consoleRequests, createStaffAccount, type StaffAccount } from "../helpers/admin-fixtures";
import { availableDrivers } from "../helpers/databases";
import { dateFromToday } from "../helpers/fixtures";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();

const notice = (html: string) => /data-testid="console-notice"[^>]*>([^<]*)</.exec(html)?.[1]?.replace(/&quot;/g, '"') ?? "";

describe.each(drivers)("media library on %s", (kind) => {
  let server: TestServer;
  let curator: StaffAccount;
  let member: string;
  const { call, post } = consoleRequests(() => server.url, () => curator);
  const db = () => server.services.database.db;
  const mediaDir = () => path.join(server.config.DATA_DIR, "media");
  const actor = () => ({ userId: curator.userId, email: curator.email });

  /** Every original the store holds with its size in bytes: PostgreSQL's with DATABASE_URL, else this disk's. */
  async function storeHolds(): Promise<Map<string, number>> {
    if (kind === "postgres") return new Map((await db().select({ key: mediaObjects.key, size: mediaObjects.size }).from(mediaObjects)).map((r) => [r.key, r.size]));
    const found = new Map<string, number>();
    const walk = (dir: string, prefix: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
        if (entry.isDirectory()) walk(path.join(dir, entry.name), rel);
        else if (/\.(svg|png|jpe?g|webp)$/.test(entry.name)) found.set(rel, statSync(path.join(dir, entry.name)).size);
      }
    };
    walk(mediaDir(), "");
    return found;
  }
  const stored = async (key: string) => (await storeHolds()).has(key);
  const jpeg = (color: string, width: number, height: number) => sharp({ create: { width, height, channels: 3, background: color } }).jpeg().toBuffer();

  async function uploadFiles(files: { name: string; bytes: Buffer; type: string }[]) {
    const form = new FormData();
    form.append("intent", "upload");
    for (const f of files) form.append("files", new Blob([new Uint8Array(f.bytes)], { type: f.type }), f.name);
    return call(curator.cookie, "/admin/media", { method: "POST", body: form });
  }

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { seed: true, listen: true });
    curator = await createStaffAccount(server.services, "curator");
    member = (await createStaffAccount(server.services, "member", { validThrough: dateFromToday(30) })).cookie;
  }, 180_000);
  afterAll(() => server?.close());

  it("lists every image the store holds with its pixel size, file size and the records using it; members get 404", async () => {
    expect((await call(member, "/admin/media")).status).toBe(404);
    const page = await call(curator.cookie, "/admin/media");
    expect(page.status).toBe(200);
    const html = await page.text();
    const holds = await storeHolds();
    expect(holds.size).toBeGreaterThan(10);
    const rows = await db().select().from(mediaLibrary);
    expect(new Map(rows.map((r) => [r.key, r.bytes]))).toEqual(holds);
    // Each size is the file's own.
    const banner = rows.find((r) => r.key === "banners/desktop-1.svg")!;
    expect({ width: banner.width, height: banner.height }).toEqual({ width: 1600, height: 600 });
    const total = /\(([\d,]+) in all\)/.exec(html)![1];
    expect(Number(total.replace(/,/g, ""))).toBe(holds.size);
    // The first page shows its images with sizes and where they are used.
    const library = await server.services.admin.media.list({ page: 1, pageSize: 500 });
    const slide = library.rows.find((r) => r.key === "banners/desktop-1.svg")!;
    expect(slide.uses).toEqual([{ label: "desktop banner slide 1", href: "/admin/banner" }]);
    const [team] = await server.services.catalog.listTeams();
    const logo = library.rows.find((r) => r.uses.some((u) => u.href === `/admin/teams/${team._id}`))!;
    expect(logo.uses[0].label).toBe(`team "${team.name}" (logo)`);
    const searched = await (await call(curator.cookie, `/admin/media?q=desktop-1`)).text();
    expect(searched).toContain("desktop-1.svg");
    expect(searched).toContain("1600 × 600 px");
    expect(searched).toContain('href="/admin/banner"');
    expect(searched).toContain("(1 in all)");
  });

  it("uploads several files at once: the bad one is named with its reason, the good ones are saved with their sizes", async () => {
    const before = await storeHolds();
    const answer = await uploadFiles([
      { name: "red.jpg", bytes: await jpeg("#a00000", 64, 48), type: "image/jpeg" },
      { name: "notes.jpg", bytes: Buffer.from("this is not a picture"), type: "image/jpeg" },
      { name: "green.jpg", bytes: await jpeg("#00a000", 30, 20), type: "image/jpeg" },
    ]);
    expect(answer.status).toBe(200);
    expect(notice(await answer.text())).toBe("2 images uploaded. Not uploaded: notes.jpg is not an image we can read (JPEG, PNG or WebP).");
    const added = [...(await storeHolds()).keys()].filter((k) => !before.has(k));
    expect(added).toHaveLength(2);
    const rows = await db().select().from(mediaLibrary).where(eq(mediaLibrary.alt, ""));
    const sizes = rows.filter((r) => added.includes(r.key)).map((r) => `${r.width}x${r.height}`).sort();
    expect(sizes).toEqual(["30x20", "64x48"]);
    // The file's own name stays in its key (a search by file name finds it).
    expect(added.map((k) => k.replace(/^library\/[0-9a-f]{8}-/, "")).sort()).toEqual(["green.jpg", "red.jpg"]);
    const green = added.find((k) => k.endsWith("-green.jpg"))!;
    expect((await server.services.admin.media.list({ q: "-green.jpg", page: 1, pageSize: 10 })).rows.map((r) => r.key)).toEqual([green]);
    // Library images are site images: a visitor sees them.
    expect((await call(undefined, `/images/view/${added[0]}?height=150`, { headers: { accept: "image/jpeg" } })).status).toBe(200);

    // Nothing good: 400, nothing stored.
    const none = await uploadFiles([{ name: "bad.png", bytes: Buffer.from("nope"), type: "image/png" }]);
    expect(none.status).toBe(400);
    expect(notice(await none.text())).toBe("Nothing was uploaded. Not uploaded: bad.png is not an image we can read (JPEG, PNG or WebP).");
    expect((await storeHolds()).size).toBe(before.size + 2);
  });

  it("edits a description; the filter finds the images still without one", async () => {
    const [a, b] = await Promise.all([
      server.services.admin.media.upload(actor(), await jpeg("#123456", 40, 40), "a.jpg"),
      server.services.admin.media.upload(actor(), await jpeg("#654321", 40, 40), "b.jpg"),
    ]);
    const saved = await post("/admin/media", { intent: "describe", key: a.key, alt: "Forbes Field from the bleachers, 1960" });
    expect(saved.status).toBe(200);
    expect(notice(await saved.text())).toBe("Description saved.");
    const [row] = await db().select().from(mediaLibrary).where(eq(mediaLibrary.key, a.key));
    expect(row.alt).toBe("Forbes Field from the bleachers, 1960");
    const missing = await (await call(curator.cookie, "/admin/media?missing=1&q=library/")).text();
    expect(missing).toContain(b.key.split("/")[1]);
    expect(missing).not.toContain(a.key.split("/")[1]);
    const count = (await db().select().from(mediaLibrary)).filter((r) => r.alt.trim() === "").length;
    expect(missing).toContain(`Only images without a description (${count})`);
    const found = await (await call(curator.cookie, "/admin/media?q=bleachers")).text();
    expect(found).toContain(a.key.split("/")[1]);
    expect(found).toContain("(1 in all)");
    expect((await post("/admin/media", { intent: "describe", key: "library/gone.jpg", alt: "x" })).status).toBe(404);
  });

  it("two staff save one description: the later save, made on a page showing the old one, is refused with what it reads now; saved again, it replaces it", async () => {
    const image = await server.services.admin.media.upload(actor(), await jpeg("#345678", 40, 40), "shared.jpg");
    const first = await post("/admin/media", { intent: "describe", key: image.key, seen: "", alt: "Three Rivers Stadium, 1970" });
    expect(notice(await first.text())).toBe("Description saved.");
    const second = await post("/admin/media", { intent: "describe", key: image.key, seen: "", alt: "Opening day crowd" });
    expect(second.status).toBe(409);
    expect(notice(await second.text())).toBe('Someone changed this description since you opened the page. It now reads "Three Rivers Stadium, 1970". Press Save description again to replace it with yours.');
    const [kept] = await db().select().from(mediaLibrary).where(eq(mediaLibrary.key, image.key));
    expect(kept.alt).toBe("Three Rivers Stadium, 1970");
    // The page now shows the colleague's description: saving again replaces it, and a repeated save of the same words is no conflict.
    const again = await post("/admin/media", { intent: "describe", key: image.key, seen: "Three Rivers Stadium, 1970", alt: "Opening day crowd" });
    expect(notice(await again.text())).toBe("Description saved.");
    expect((await post("/admin/media", { intent: "describe", key: image.key, seen: "", alt: "Opening day crowd" })).status).toBe(200);
    const [after] = await db().select().from(mediaLibrary).where(eq(mediaLibrary.key, image.key));
    expect(after.alt).toBe("Opening day crowd");
  });

  it("an image in use cannot be deleted (409, where it is used); an unused one is deleted with its file", async () => {
    const used = await server.services.admin.media.upload(actor(), await jpeg("#0000a0", 50, 50), "used.jpg");
    const spare = await server.services.admin.media.upload(actor(), await jpeg("#a0a000", 50, 50), "spare.jpg");
    const [team] = await server.services.catalog.listTeams();
    const [{ id: categoryId }] = await server.services.admin.collection.categories.options();
    const exhibit = await server.services.admin.collection.exhibits.save(actor(), null, {
      teamId: team._id,
      categoryId,
      title: "Library Thumbnail Exhibit",
      shortTitle: "Library Thumb",
      descriptionHtml: "<p>Uses a library image.</p>",
      thumbnail: used.key,
      thumbnailAlt: "A blue square",
      matchingPhoto: null,
      matchingPhotoAlt: null,
      active: true,
      year: 1971,
      favoriteStory: false,
      enshrineeIds: [],
    });
    if (!exhibit.ok) throw new Error(exhibit.message);
    // The exhibit names its own copy of the library image (the next test): that copy is in use.
    const [{ thumbnail }] = await db().select({ thumbnail: exhibits.thumbnail }).from(exhibits).where(eq(exhibits.id, exhibit.id));
    const usedKey = thumbnail;
    expect(usedKey).toBe(`exhibits/${exhibit.id}/${used.key.split("/")[1]}`);

    const refused = await post("/admin/media", { intent: "delete", key: usedKey, confirm: "yes" });
    expect(refused.status).toBe(409);
    expect(notice(await refused.text())).toBe('This image cannot be deleted: it is used by exhibit "Library Thumbnail Exhibit" (thumbnail). Choose another image there first (or empty the Trash of it).');
    expect(await stored(usedKey)).toBe(true);
    const listed = await (await call(curator.cookie, `/admin/media?q=${encodeURIComponent(usedKey)}`)).text();
    expect(listed).toContain(`href="/admin/exhibits/${exhibit.id}"`);

    // Unused: asked first, then deleted; its image answers 404.
    const asked = await post("/admin/media", { intent: "delete", key: spare.key });
    expect(asked.headers.get("location")).toBe(`/admin/media?delete=${encodeURIComponent(spare.key)}`);
    expect(await (await call(curator.cookie, asked.headers.get("location")!)).text()).toContain(`Delete ${spare.key} for good?`);
    const deleted = await post("/admin/media", { intent: "delete", key: spare.key, confirm: "yes" });
    expect(deleted.status).toBe(200);
    expect(notice(await deleted.text())).toBe("Image deleted.");
    expect(await stored(spare.key)).toBe(false);
    expect(await db().select().from(mediaLibrary).where(eq(mediaLibrary.key, spare.key))).toEqual([]);
    expect((await call(curator.cookie, `/images/view/${spare.key}?height=150`)).status).toBe(404);
    if (kind === "pglite") expect(existsSync(path.join(mediaDir(), spare.key))).toBe(false);

    // In the Trash, still named: refused, saying so.
    expect((await post(`/admin/exhibits/${exhibit.id}`, { intent: "delete", confirm: "yes" })).headers.get("location")).toBe("/admin/exhibits?notice=deleted");
    const inTrash = await post("/admin/media", { intent: "delete", key: usedKey, confirm: "yes" });
    expect(inTrash.status).toBe(409);
    expect(notice(await inTrash.text())).toContain('exhibit "Library Thumbnail Exhibit" in the Trash');
    expect(await stored(usedKey)).toBe(true);
  });

  it("a library image picked as an exhibit's thumbnail and matching photo is copied into the exhibit's member-only folder; the original can then be deleted", async () => {
    const picked = await server.services.admin.media.upload(actor(), await jpeg("#208020", 72, 54), "dugout.jpg");
    const [team] = await server.services.catalog.listTeams();
    const [{ id: categoryId }] = await server.services.admin.collection.categories.options();
    const created = await post("/admin/exhibits/new", {
      teamId: team._id,
      categoryId,
      title: "Picked From The Library",
      shortTitle: "Picked Library",
      descriptionHtml: "<p>Members only.</p>",
      thumbnail: picked.key,
      thumbnailAlt: "A green dugout",
      matchingPhoto: picked.key,
      matchingPhotoAlt: "The same dugout",
      active: "on",
      year: "1960",
    });
    expect(created.status).toBe(302);
    const id = /\/admin\/exhibits\/([0-9a-f-]{36})/.exec(created.headers.get("location")!)![1];
    const row = async () => (await db().select().from(exhibits).where(eq(exhibits.id, id)))[0];
    const copy = `exhibits/${id}/${picked.key.split("/")[1]}`;
    expect({ thumbnail: (await row()).thumbnail, matchingPhoto: (await row()).matchingPhoto }).toEqual({ thumbnail: copy, matchingPhoto: copy });
    expect(await stored(copy)).toBe(true);
    expect(await stored(picked.key)).toBe(true);
    // A visitor without a ticket gets the member-only answer; a member sees the image.
    const url = `/images/view/${copy}?height=150`;
    const visitor = await call(undefined, url, { headers: { accept: "image/jpeg" } });
    expect(visitor.status).toBe(403);
    expect((await visitor.json()) as unknown).toMatchObject({ message: "A museum ticket is required to view this image." });
    expect((await call(member, url, { headers: { accept: "image/jpeg" } })).status).toBe(200);
    // The library says the copy is used by the exhibit, the original by nothing: it can be deleted.
    const [copyRow] = (await server.services.admin.media.list({ q: copy, page: 1, pageSize: 5 })).rows;
    expect(copyRow.uses.map((u) => u.label)).toEqual(['exhibit "Picked From The Library" (thumbnail)', 'exhibit "Picked From The Library" (matching photo)']);
    expect((await server.services.admin.media.get(picked.key))!.uses).toEqual([]);
    const deleted = await post("/admin/media", { intent: "delete", key: picked.key, confirm: "yes" });
    expect(notice(await deleted.text())).toBe("Image deleted.");
    expect(await stored(picked.key)).toBe(false);
    expect((await call(member, url, { headers: { accept: "image/jpeg" } })).status).toBe(200);

    // The CSV import does the same with a library path in its cells.
    const other = await server.services.admin.media.upload(actor(), await jpeg("#802020", 40, 30), "pennant.jpg");
    const imported = await server.services.admin.collectionCsv.run(actor(), "exhibits", new TextEncoder().encode(`id,matching_photo,matching_photo_alt\n${id},${other.key},A red pennant\n`));
    expect(imported.ok).toBe(true);
    expect((await row()).matchingPhoto).toBe(`exhibits/${id}/${other.key.split("/")[1]}`);
    expect((await row()).thumbnail).toBe(copy);
    expect((await call(undefined, `/images/view/${(await row()).matchingPhoto}?height=150`, { headers: { accept: "image/jpeg" } })).status).toBe(403);
    expect((await server.services.admin.media.get(other.key))!.uses).toEqual([]);
  });

  it("a banner slide's width and height are read from its file, whatever the form says", async () => {
    const image = await server.services.admin.media.upload(actor(), await jpeg("#336699", 320, 120), "wide.jpg");
    const slides = () => db().select().from(bannerSlides).where(eq(bannerSlides.variant, "desktop")).orderBy(asc(bannerSlides.position));
    const added = await post("/admin/banner", { intent: "add", variant: "desktop", file: image.key, alt: "A wide library slide", width: "9", height: "9" });
    expect(notice(await added.text())).toBe("The desktop banner is saved.");
    expect(added.status).toBe(200);
    const slide = (await slides()).find((s) => s.file === image.key)!;
    expect({ width: slide.width, height: slide.height }).toEqual({ width: 320, height: 120 });
    // Changing the slide's image takes the new file's size.
    const updated = await post("/admin/banner", { intent: "update", variant: "desktop", slide: slide.id, file: "banners/desktop-2.svg", alt: "Back to a seeded slide" });
    expect(updated.status).toBe(200);
    const after = (await slides()).find((s) => s.id === slide.id)!;
    expect({ file: after.file, width: after.width, height: after.height }).toEqual({ file: "banners/desktop-2.svg", width: 1600, height: 600 });
    // A file the library does not hold: 400 on the image, nothing saved.
    const missing = await post("/admin/banner", { intent: "add", variant: "desktop", file: "banners/nothing-here.jpg", alt: "Nothing" });
    expect(missing.status).toBe(400);
    expect(notice(await missing.text())).toBe("That image is not in the media library: choose one from the library.");
    // The page shows the size as read, with no width or height field.
    const page = await (await call(curator.cookie, "/admin/banner")).text();
    expect(page).toContain("1600 × 600 px (read from the file)");
    expect(page).not.toContain('name="width"');
  });

  it("the picker page hands the image back to the form without JavaScript", async () => {
    const image = await server.services.admin.media.upload(actor(), await jpeg("#993366", 60, 60), "pick.jpg");
    const picker = await (await call(curator.cookie, `/admin/media?pick=thumbnail&return=${encodeURIComponent("/admin/exhibits/new")}`)).text();
    const back = `/admin/exhibits/new?pick-thumbnail=${encodeURIComponent(image.key)}`;
    expect(picker).toContain(`href="${back.replace(/&/g, "&amp;")}"`);
    expect(picker).toContain("Use this image");
    const form = await (await call(curator.cookie, back)).text();
    expect(form).toMatch(new RegExp(`id="thumbnail"[^>]*value="${image.key}"`));
  });
});
