/**
 * Exhibit photos from the console, on both databases: several files in one streamed upload,
 * checked by decoding (not by name), stripped of metadata, stored under DATA_DIR/media; a broken,
 * oversized or too-many upload refused with a clear message and nothing left behind; reorder,
 * descriptions, thumbnail and matching photo; removal; the member-only rule on the image
 * routes; and the preview as a visitor and as a member, saved or not.
 */
import { existsSync, readdirSync } from "node:fs";
import { request as httpRequest } from "node:http";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExhibitView } from "~/shared/catalog-types";
import { auditLog, exhibits, teams } from "../../server/db/schema";
import { createPhotoTestExhibit, createStaffAccount, jpegWithGps, previewPanes, type StaffAccount } from "../helpers/admin-fixtures";
import { availableDrivers } from "../helpers/databases";
import { dateFromToday } from "../helpers/fixtures";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();

describe.each(drivers)("exhibit photos on %s", (kind) => {
  let server: TestServer;
  let curator: StaffAccount;
  let member: string;
  let exhibitId: string;
  let mediaDir: string;
  /**
   * A POST whose answer is read even when the server stops reading the body and closes early
   * (fetch then throws and the answer would be lost). `write` sends the body; no `end` is needed
   * when the server answers first.
   */
  const rawPost = (p: string, headers: Record<string, string>, write: (req: ReturnType<typeof httpRequest>) => void) =>
    new Promise<{ status: number; location: string | null }>((resolve, reject) => {
      const req = httpRequest(`${server.url}${p}`, { method: "POST", headers: { cookie: curator.cookie, ...headers } }, (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, location: res.headers.location ?? null });
      });
      // The server may close while the body is still going out: only a missing answer fails.
      req.on("error", (error) => setTimeout(() => reject(error), 1_000));
      req.setTimeout(10_000, () => req.destroy(new Error(`no answer to POST ${p} within 10 s`)));
      write(req);
    });
  const call = (cookie: string | undefined, p: string, init: RequestInit = {}) =>
    fetch(`${server.url}${p}`, { redirect: "manual", ...init, headers: { ...(cookie ? { cookie } : {}), ...(init.headers as Record<string, string>) } });
  const upload = (files: { name: string; bytes: Buffer; type?: string }[], alt = "Team photo") => {
    const form = new FormData();
    form.append("alt", alt);
    for (const f of files) form.append("photos", new Blob([new Uint8Array(f.bytes)], { type: f.type ?? "image/jpeg" }), f.name);
    return call(curator.cookie, `/admin/exhibits/${exhibitId}/photos/upload`, { method: "POST", body: form });
  };
  const postForm = (p: string, fields: [string, string][]) =>
    call(curator.cookie, p, { method: "POST", body: new URLSearchParams(fields), headers: { "content-type": "application/x-www-form-urlencoded" } });
  const files = () => (existsSync(path.join(mediaDir, "exhibits", exhibitId)) ? readdirSync(path.join(mediaDir, "exhibits", exhibitId)).sort() : []);
  const photos = () => server.services.admin.photos.get(exhibitId);

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { seed: true, listen: true });
    mediaDir = path.join(server.config.DATA_DIR, "media");
    curator = await createStaffAccount(server.services, "curator");
    member = (await createStaffAccount(server.services, "member", { validThrough: dateFromToday(30) })).cookie;
    exhibitId = await createPhotoTestExhibit(server.services, curator, "Photo Test Exhibit", 1975);
  }, 180_000);
  afterAll(() => server?.close());

  it("stores three photos from one upload, without their GPS and camera data, the first as thumbnail", async () => {
    const answer = await upload([
      { name: "one.jpg", bytes: await jpegWithGps("#aa0000") },
      { name: "two.jpg", bytes: await jpegWithGps("#00aa00") },
      { name: "three.jpg", bytes: await jpegWithGps("#0000aa") },
    ]);
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe(`/admin/exhibits/${exhibitId}/photos?upload=done`);
    const state = await photos();
    expect(state!.photos).toHaveLength(3);
    expect(state!.thumbnail).toBe(state!.photos[0].file);
    expect(files()).toHaveLength(3);
    for (const p of state!.photos) {
      const meta = await sharp(path.join(mediaDir, p.file)).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.format).toBe("jpeg");
    }
    const page = await (await call(curator.cookie, `/admin/exhibits/${exhibitId}/photos?upload=done`)).text();
    expect(page).toContain("Photos uploaded.");
  });

  it("refuses a file that is not an image whatever its name, and leaves nothing of that upload behind", async () => {
    const before = files();
    const answer = await upload([
      { name: "good.jpg", bytes: await jpegWithGps("#ffffff") },
      { name: "evil.jpg", bytes: Buffer.from("<?php system($_GET['x']); ?>".repeat(20)) },
    ]);
    expect(answer.headers.get("location")).toMatch(/upload=not-image$/);
    expect(files()).toEqual(before);
    expect((await photos())!.photos).toHaveLength(3);
    const truncated = (await jpegWithGps("#123456")).subarray(0, 200);
    expect((await upload([{ name: "cut.jpg", bytes: truncated }])).headers.get("location")).toMatch(/upload=(damaged|not-image)$/);
    expect(files()).toEqual(before);
  });

  it("refuses images over 40 megapixels, more than 12 files, a missing description, and bodies over the limit", async () => {
    const huge = await sharp({ create: { width: 8000, height: 5200, channels: 3, background: "#ffffff" } }).png({ compressionLevel: 9 }).toBuffer();
    expect((await upload([{ name: "huge.png", bytes: huge, type: "image/png" }])).headers.get("location")).toMatch(/upload=pixels$/);
    const small = await jpegWithGps("#333333");
    const thirteen = Array.from({ length: 13 }, (_, i) => ({ name: `p${i}.jpg`, bytes: small }));
    expect((await upload(thirteen)).headers.get("location")).toMatch(/upload=too-many$/);
    expect((await upload([{ name: "ok.jpg", bytes: small }], "")).headers.get("location")).toMatch(/upload=alt$/);
    const uploadPath = `/admin/exhibits/${exhibitId}/photos/upload`;
    // Declared too large: refused from the header, before any of the body is read.
    const declared = await rawPost(uploadPath, { "content-type": "multipart/form-data; boundary=x", "content-length": String(65 * 1024 * 1024) }, (req) => req.write("--x--"));
    expect(declared.status).toBe(413);
    // A streamed (chunked) body with a 70 MB part is cut off as it arrives.
    const boundary = "xyz";
    const streamed = await rawPost(uploadPath, { "content-type": `multipart/form-data; boundary=${boundary}` }, (req) => {
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="alt"\r\n\r\n`);
      const chunk = Buffer.alloc(1024 * 1024, 97);
      let sent = 0;
      const more = () => {
        while (sent < 70 && !req.destroyed) {
          sent++;
          if (!req.write(chunk)) return void req.once("drain", more);
        }
        if (!req.destroyed) req.end();
      };
      more();
    });
    // The parser's per-part limit (15 MB) or the host's stream limit (64 MB) stops it, whichever comes first.
    expect(streamed.status).toBe(303);
    expect(streamed.location).toMatch(/upload=(too-large|file-size)$/);
    expect(files()).toHaveLength(3);
    expect((await photos())!.photos).toHaveLength(3);
  });

  it("reorders, describes and chooses thumbnail and matching photo; members see the new order, visitors no photo", async () => {
    const state = (await photos())!;
    const [a, b, c] = state.photos.map((p) => p.file);
    const saved = await postForm(`/admin/exhibits/${exhibitId}/photos`, [
      ["order", c],
      ["order", a],
      ["order", b],
      [`alt:${a}`, "Red jersey"],
      [`alt:${b}`, "Green field"],
      [`alt:${c}`, "Blue sky"],
      ["thumbnail", c],
      ["matching", b],
      ["intent", "arrange"],
    ]);
    expect(saved.status).toBe(200);
    const asMember = (await (await call(member, `/api/exhibits/${exhibitId}`)).json()) as ExhibitView;
    expect(asMember.exhibitPhotos!.map((u) => u.split("?")[0].replace("/images/view/", ""))).toEqual([c, a, b]);
    expect(asMember.exhibitPhotoAlts).toEqual(["Blue sky", "Red jersey", "Green field"]);
    expect(asMember.thumbnailURL).toContain(c);
    expect(asMember.matchingPhoto).toContain(b);
    const asVisitor = (await (await call(undefined, `/api/exhibits/${exhibitId}`)).json()) as ExhibitView;
    expect(asVisitor.exhibitPhotos).toBeUndefined();
    expect(asVisitor.title).toBe("Photo Test Exhibit");
    const entries = await server.services.database.db.select().from(auditLog).where(eq(auditLog.entityId, exhibitId));
    expect(entries.map((e) => e.action)).toContain("exhibit.photos.arrange");

    // Without JavaScript: the Move buttons reorder and save in one post.
    await postForm(`/admin/exhibits/${exhibitId}/photos`, [["order", c], ["order", a], ["order", b], ["move", "0:1"], ["thumbnail", c], ["matching", b]]);
    expect((await photos())!.photos.map((p) => p.file)).toEqual([a, c, b]);
    // Every photo needs a description.
    const blank = await postForm(`/admin/exhibits/${exhibitId}/photos`, [["order", a], [`alt:${a}`, "  "], ["thumbnail", c]]);
    expect(blank.status).toBe(400);
    expect(await blank.text()).toContain("Every photo needs a description.");
  });

  it("serves the photos to members and staff only", async () => {
    const [first] = (await photos())!.photos;
    const url = `/images/view/${first.file}?height=150`;
    expect((await call(undefined, url)).status).toBe(403);
    expect((await call(member, url)).status).toBe(200);
    expect((await call(curator.cookie, url)).status).toBe(200);
  });

  it("removes a photo and its file", async () => {
    const state = (await photos())!;
    const gone = state.photos[1].file;
    const removed = await postForm(`/admin/exhibits/${exhibitId}/photos`, [["remove", gone]]);
    expect(removed.status).toBe(200);
    expect((await photos())!.photos.map((p) => p.file)).not.toContain(gone);
    expect(existsSync(path.join(mediaDir, gone))).toBe(false);
  });

  it("uploads a team logo within the team form: the form comes back as typed with the logo, nothing saved until Save team (decision 039)", async () => {
    const name = `Riverhounds ${kind}`;
    const typed: [string, string][] = [
      ["version", ""],
      ["name", name],
      ["league", "USL <Championship>"],
      ["logo", ""],
      ["headline", "Soccer on the river"],
      ["description", "Typed, not saved."],
      ["sortOrder", "7"],
    ];
    const teamForm = async (fields: [string, string][], file: { bytes: Buffer; name: string } | null, intent?: string) => {
      const form = new FormData();
      for (const [k, v] of fields) form.append(k, v);
      if (file) form.append("logoFile", new Blob([new Uint8Array(file.bytes)], { type: "image/jpeg" }), file.name);
      if (intent) form.append("intent", intent);
      return call(curator.cookie, "/admin/teams/new", { method: "POST", body: form });
    };
    const teamsNamed = () => server.services.database.db.select().from(teams).where(eq(teams.name, name));
    const logos = () => (existsSync(path.join(mediaDir, "logos")) ? readdirSync(path.join(mediaDir, "logos")).sort() : []);
    const before = logos();

    // Upload: 200, the page holds every typed field and the new logo; no team was made.
    const uploaded = await teamForm(typed, { bytes: await jpegWithGps("#ffb612"), name: "logo.jpg" }, "upload-logo");
    expect(uploaded.status).toBe(200);
    const page = await uploaded.text();
    const key = /value="(logos\/[0-9a-f-]{36}\.jpg)"/.exec(page)![1];
    expect(page).toContain("Logo uploaded: save the team to use it.");
    for (const value of [name, "USL &lt;Championship&gt;", "Soccer on the river", "Typed, not saved.", 'value="7"']) expect(page).toContain(value);
    expect(await teamsNamed()).toHaveLength(0);
    expect(logos()).toEqual([...before, key.slice("logos/".length)].sort());
    expect((await sharp(path.join(mediaDir, key)).metadata()).exif).toBeUndefined();
    expect((await call(undefined, `/images/view/${key}?height=150`)).status).toBe(200);

    // A file that is not an image: 400 with the reason, the typing kept, nothing stored.
    const refused = await teamForm(typed, { bytes: Buffer.from("not an image at all"), name: "x.jpg" }, "upload-logo");
    expect(refused.status).toBe(400);
    const refusedPage = await refused.text();
    expect(refusedPage).toContain("not a JPEG, PNG or WebP photo");
    expect(refusedPage).toContain(name);
    expect(logos()).toHaveLength(before.length + 1);
    // Upload with no file chosen: asked for one.
    expect((await teamForm(typed, null, "upload-logo")).status).toBe(400);

    // A member, and a visitor, cannot upload through the form.
    const outsider = await createStaffAccount(server.services, "member", { validThrough: dateFromToday(5) });
    const form = new FormData();
    form.append("intent", "upload-logo");
    form.append("logoFile", new Blob([new Uint8Array(await jpegWithGps("#000000"))], { type: "image/jpeg" }), "b.jpg");
    expect((await call(outsider.cookie, "/admin/teams/new", { method: "POST", body: form })).status).toBe(404);
    expect(logos()).toHaveLength(before.length + 1);

    // Save team with the uploaded logo named: saved with all of it.
    const saved = await teamForm(typed.map(([k, v]): [string, string] => [k, k === "logo" ? key : v]), null);
    expect(saved.status).toBe(302);
    const [team] = await teamsNamed();
    expect(saved.headers.get("location")).toBe(`/admin/teams/${team.id}?notice=saved`);
    expect(team).toMatchObject({ league: "USL <Championship>", logo: key, headline: "Soccer on the river", description: "Typed, not saved.", sortOrder: 7 });

    // A file chosen and "Save team" at once: stored and used.
    const direct = await teamForm([...typed.filter(([k]) => k !== "name" && k !== "version"), ["name", `${name} II`], ["version", ""]], { bytes: await jpegWithGps("#101820"), name: "l.jpg" });
    expect(direct.status).toBe(302);
    const [second] = await server.services.database.db.select().from(teams).where(eq(teams.name, `${name} II`));
    expect(second.logo).toMatch(/^logos\/[0-9a-f-]{36}\.jpg$/);
    expect(second.logo).not.toBe(key);

    // The page's url-encoded posts (delete, its confirmation) stay page-form sized: 413 over 64 KB.
    const big = await rawPost(`/admin/teams/${team.id}`, { "content-type": "application/x-www-form-urlencoded", "content-length": String(70 * 1024) }, (req) => req.write("a=b"));
    expect(big.status).toBe(413);
    const deleting = await postForm(`/admin/teams/${team.id}`, [["intent", "delete"]]);
    expect(deleting.headers.get("location")).toBe(`/admin/teams/${team.id}?delete=confirm`);
  });

  it("uploads a banner image within the banner's Add form (public folder, cleaned): the form comes back as typed with the image, no slide added (decision 039)", async () => {
    const slides = async () => (await server.services.admin.collection.banner.list()).desktop.length;
    const banners = () => (existsSync(path.join(mediaDir, "banners")) ? readdirSync(path.join(mediaDir, "banners")).sort() : []);
    const addForm = (image: { bytes: Buffer; type: string; name: string } | null, cookie = curator.cookie) => {
      const form = new FormData();
      for (const [k, v] of [["variant", "desktop"], ["file", "banners/"], ["alt", "Typed <slide> words"], ["width", "1600"], ["height", "600"], ["publication", "draft"], ["intent", "upload-image"]]) form.append(k, v);
      if (image) form.append("image", new Blob([new Uint8Array(image.bytes)], { type: image.type }), image.name);
      return call(cookie, "/admin/banner", { method: "POST", body: form });
    };
    const count = await slides();
    const before = banners();

    // A file that is not an image: 400 with the reason beside the typing, nothing stored.
    const refused = await addForm({ bytes: Buffer.from("not an image at all"), type: "image/png", name: "x.png" });
    expect(refused.status).toBe(400);
    const refusedPage = await refused.text();
    expect(refusedPage).toContain("not a JPEG, PNG or WebP photo");
    expect(refusedPage).toMatch(/id="desktop-new-alt"[^>]*value="Typed &lt;slide&gt; words"/);
    expect(banners()).toEqual(before);

    // A member cannot upload through the form: 404, nothing stored.
    const outsider = await createStaffAccount(server.services, "member", { validThrough: dateFromToday(5) });
    expect((await addForm({ bytes: await jpegWithGps("#000000"), type: "image/jpeg", name: "b.jpg" }, outsider.cookie)).status).toBe(404);
    expect(banners()).toEqual(before);

    // The image stored without its metadata, public; the form back as typed, its name and size filled in, no slide added.
    const answered = await addForm({ bytes: await jpegWithGps("#203040"), type: "image/jpeg", name: "s.jpg" });
    expect(answered.status).toBe(200);
    const bannerPage = await answered.text();
    expect(bannerPage).toContain("Image uploaded: add it as a slide below.");
    const key = /id="desktop-new-file"[^>]*value="(banners\/[0-9a-f-]{36}\.jpg)"/.exec(bannerPage)![1];
    expect(bannerPage).toMatch(/id="desktop-new-alt"[^>]*value="Typed &lt;slide&gt; words"/);
    // Its size is read from the file (decision 061), shown, never typed.
    expect(bannerPage).toContain("64 × 48 px (read from the file)");
    expect(bannerPage).not.toContain('name="width"');
    expect(banners()).toEqual([...before, key.slice("banners/".length)].sort());
    expect((await sharp(path.join(mediaDir, key)).metadata()).exif).toBeUndefined();
    expect((await call(undefined, `/images/view/${key}?height=150`)).status).toBe(200);
    expect(await slides()).toBe(count);
    // The page's notice is an answer's or a restore's: the removed upload route's `?upload=` codes show nothing.
    expect(await (await call(curator.cookie, "/admin/banner?upload=not-image")).text()).not.toContain("not a JPEG, PNG or WebP photo");
  });

  it("previews the inactive exhibit as a visitor and as a member, and unsaved values without writing them", async () => {
    const page = await (await call(curator.cookie, `/admin/exhibits/${exhibitId}/preview`)).text();
    const { visitor, member: memberView } = previewPanes(page);
    expect(visitor).toContain("Photo Test Exhibit");
    expect(visitor).not.toContain("Members-only words");
    expect(memberView).toContain("Members-only words about the photos.");
    expect(page).toContain("This exhibit is inactive");

    const [row] = await server.services.database.db.select().from(exhibits).where(eq(exhibits.id, exhibitId));
    const draft = await postForm(`/admin/exhibits/${exhibitId}/preview`, [
      ["teamId", row.teamId],
      ["categoryId", row.categoryId],
      ["title", "A Title Not Saved Yet"],
      ["shortTitle", "Not saved"],
      ["descriptionHtml", "<p>Draft words <script>x()</script></p>"],
      ["year", "1980"],
      ["thumbnail", ""],
      ["thumbnailAlt", ""],
      ["matchingPhoto", ""],
      ["matchingPhotoAlt", ""],
    ]);
    const html = await draft.text();
    expect(html).toContain("A Title Not Saved Yet");
    expect(html).toContain("Draft words");
    expect(html).not.toContain("x()");
    const [after] = await server.services.database.db.select().from(exhibits).where(eq(exhibits.id, exhibitId));
    expect(after.title).toBe("Photo Test Exhibit");
  });
});
