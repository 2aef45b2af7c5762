/**
 * Enshrinee portraits and rich biographies (decision 033), on both databases:
 * a portrait uploaded from the console is cleaned like an exhibit photo (no EXIF/GPS), needs a
 * description, is served publicly as a rendition and shows on the Wall of Fame, the enshrinee
 * page and its JSON-LD; a biography is sanitized like exhibit texts (no script), shows its
 * formatting to members only, and search still finds its words; migration 0021 turns a plain
 * biography into HTML.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, enshrinees } from "../../server/db/schema";
import { createStaffAccount, jpegWithGps, type StaffAccount } from "../helpers/admin-fixtures";
import { availableDrivers } from "../helpers/databases";
import { dateFromToday } from "../helpers/fixtures";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();

describe.each(drivers)("enshrinee portraits and biographies on %s", (kind) => {
  let server: TestServer;
  let curator: StaffAccount;
  let member: string;
  let id: string;
  let mediaDir: string;
  const pagePath = () => `/enshrinees/ada-portrait/${id}`;
  const call = (cookie: string | undefined, p: string, init: RequestInit = {}) =>
    fetch(`${server.url}${p}`, { redirect: "manual", ...init, headers: { ...(cookie ? { cookie } : {}), ...(init.headers as Record<string, string>) } });
  const post = (p: string, fields: Record<string, string>) =>
    call(curator.cookie, p, { method: "POST", body: new URLSearchParams(fields), headers: { "content-type": "application/x-www-form-urlencoded" } });
  /** The portrait panel's buttons inside the enshrinee form (decision 039): "Save portrait", or "Remove the portrait". */
  const upload = (file: { name: string; bytes: Buffer } | null, alt: string, intent = "save-portrait") => {
    const form = new FormData();
    form.append("alt", alt);
    if (file) form.append("portrait", new Blob([new Uint8Array(file.bytes)], { type: "image/jpeg" }), file.name);
    form.append("intent", intent);
    return call(curator.cookie, `/admin/enshrinees/${id}`, { method: "POST", body: form });
  };
  /** The answer's status and the notice its portrait panel shows. */
  const outcome = async (answer: Response) => `${answer.status} ${/id="portrait-heading"[\s\S]*?data-testid="console-notice"[^>]*>([^<]*)</.exec(await answer.text())?.[1]}`;
  const row = async () => (await server.services.database.db.select().from(enshrinees).where(eq(enshrinees.id, id)))[0];

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { seed: true, listen: true });
    mediaDir = path.join(server.config.DATA_DIR, "media");
    curator = await createStaffAccount(server.services, "curator");
    member = (await createStaffAccount(server.services, "member", { validThrough: dateFromToday(30) })).cookie;
  }, 180_000);
  afterAll(() => server?.close());

  it("saves a biography's formatting without its script; members see it, visitors do not, and search finds its words", async () => {
    const saved = await post("/admin/enshrinees/new", {
      fullName: "Ada Portrait",
      firstName: "Ada",
      lastName: "Portrait",
      biography: '<p>Known for a <strong>zorblaxian</strong> curveball.</p><script>alert("x")</script><ul><li>Pitcher</li><li onclick="steal()">Coach</li></ul>',
    });
    expect(saved.status).toBe(302);
    id = /\/admin\/enshrinees\/([0-9a-f-]{36})\?notice=saved$/.exec(saved.headers.get("location") ?? "")![1];
    const stored = await row();
    expect(stored.biographyHtml).toBe("<p>Known for a <strong>zorblaxian</strong> curveball.</p><ul><li>Pitcher</li><li>Coach</li></ul>");
    expect(stored.biography).toBe("Known for a zorblaxian curveball.\n\n• Pitcher\n\n• Coach");

    const memberPage = await (await call(member, pagePath())).text();
    expect(memberPage).toContain("<strong>zorblaxian</strong>");
    expect(memberPage).toContain("<li>Pitcher</li>");
    expect(memberPage).not.toContain('alert("x")');
    const visitorPage = await (await call(undefined, pagePath())).text();
    expect(visitorPage).not.toContain("zorblaxian");
    expect(await (await call(undefined, `${pagePath()}.data`)).text()).not.toContain("zorblaxian");
    expect(await (await call(undefined, `/api/enshrinees/${id}`)).text()).not.toContain("zorblaxian");

    const found = (await (await call(member, "/api/search?q=zorblaxian")).json()) as { results: { _id: string }[] };
    expect(found.results.map((r) => r._id)).toEqual([id]);
    const visitorSearch = (await (await call(undefined, "/api/search?q=zorblaxian")).json()) as { results: { _id: string }[] };
    expect(visitorSearch.results).toEqual([]);
  });

  it("uploads a portrait without its GPS and camera data, with its description, served publicly as a rendition", async () => {
    const answer = await upload({ name: "ada.jpg", bytes: await jpegWithGps("#884422", 60, 80) }, "Ada Portrait in her 1930 uniform");
    expect(await outcome(answer)).toBe("200 Portrait saved.");
    const stored = await row();
    expect(stored.portrait).toMatch(new RegExp(`^portraits/${id}/[0-9a-f-]{36}\\.jpg$`));
    expect(stored.portraitAlt).toBe("Ada Portrait in her 1930 uniform");
    const meta = await sharp(path.join(mediaDir, stored.portrait!)).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.format).toBe("jpeg");

    const image = await call(undefined, `/images/view/${stored.portrait}?height=150`, { headers: { accept: "image/jpeg" } });
    expect(image.status).toBe(200);
    expect(image.headers.get("cache-control")).toContain("public");
    const rendition = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    expect(rendition.height).toBe(150);
    expect(rendition.exif).toBeUndefined();

    const [entry] = await server.services.database.db.select().from(auditLog).where(eq(auditLog.action, "enshrinee.portrait.set"));
    expect(entry).toMatchObject({ entityId: id, actorEmail: curator.email, summary: "Uploaded a portrait of Ada Portrait" });
    // The panel's notice is the answer's alone: the removed portrait route's `?portrait=` codes show nothing.
    expect(await (await call(curator.cookie, `/admin/enshrinees/${id}?portrait=done`)).text()).not.toContain("Portrait saved.");
  });

  it("shows the portrait to visitors on the Wall of Fame, the enshrinee page and its JSON-LD Person", async () => {
    const file = (await row()).portrait!;
    const wall = await (await call(undefined, "/enshrinees")).text();
    expect(wall).toContain(`src="/images/view/${file}?height=150"`);
    expect(wall).toContain('alt="Ada Portrait in her 1930 uniform"');
    const page = await (await call(undefined, pagePath())).text();
    expect(page).toContain(`src="/images/view/${file}?height=400"`);
    const ld = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(page)![1];
    const person = JSON.parse(ld) as { "@type": string; image: string };
    expect(person["@type"]).toBe("Person");
    expect(person.image).toBe(`${server.config.PUBLIC_URL}/images/view/${file}?height=400`);
    const api = (await (await call(undefined, "/api/enshrinees")).json()) as { _id: string; portrait: string | null; portraitAlt: string }[];
    expect(api.find((e) => e._id === id)).toMatchObject({ portrait: `/images/view/${file}?height=400`, portraitAlt: "Ada Portrait in her 1930 uniform" });
  });

  it("refuses a missing description or a file that is not an image, and keeps the portrait", async () => {
    const before = await row();
    expect(await outcome(await upload({ name: "b.jpg", bytes: await jpegWithGps("#000000") }, "  "))).toBe("400 Please describe the portrait for people who cannot see it: nothing was saved.");
    expect(await outcome(await upload({ name: "evil.jpg", bytes: Buffer.from("<?php echo 1; ?>".repeat(30)) }, "Evil"))).toBe("400 The file is not a JPEG, PNG or WebP photo: nothing was saved.");
    expect(await row()).toMatchObject({ portrait: before.portrait, portraitAlt: before.portraitAlt });
  });

  it("changes the description alone, replaces the portrait (the old file goes), and removes it", async () => {
    const first = (await row()).portrait!;
    expect(await outcome(await upload(null, "Ada Portrait, 1931"))).toBe("200 Portrait description saved.");
    expect(await row()).toMatchObject({ portrait: first, portraitAlt: "Ada Portrait, 1931" });
    expect(await outcome(await upload({ name: "new.jpg", bytes: await jpegWithGps("#226688") }, "Ada Portrait, 1935"))).toBe("200 Portrait saved.");
    const second = (await row()).portrait!;
    expect(second).not.toBe(first);
    expect(existsSync(path.join(mediaDir, first))).toBe(false);
    expect(await outcome(await upload(null, "", "remove-portrait"))).toBe("200 Portrait removed.");
    expect(await row()).toMatchObject({ portrait: null, portraitAlt: null });
    expect(existsSync(path.join(mediaDir, second))).toBe(false);
    expect(await (await call(undefined, "/enshrinees")).text()).not.toContain(`portraits/${id}/`);
  });

  it("saves a portrait from inside the enshrinee form and answers with everything typed (decision 039)", async () => {
    const typed: [string, string][] = [
      ["fullName", "Ada <Typed> Portrait"],
      ["firstName", "Ada"],
      ["lastName", "Portrait"],
      ["biography", "<p>Typed, not saved: a bonsplerian slider.</p>"],
    ];
    const edit = (fields: [string, string][], file: { name: string; bytes: Buffer } | null, intent?: string, cookie = curator.cookie) => {
      const form = new FormData();
      for (const [k, v] of fields) form.append(k, v);
      if (file) form.append("portrait", new Blob([new Uint8Array(file.bytes)], { type: "image/jpeg" }), file.name);
      if (intent) form.append("intent", intent);
      return call(cookie, `/admin/enshrinees/${id}`, { method: "POST", body: form });
    };
    const typedKept = (page: string) => {
      for (const text of ["Ada &lt;Typed&gt; Portrait", "bonsplerian slider"]) expect(page).toContain(text);
    };
    expect((await row()).portrait).toBeNull();
    const audits = async () => (await server.services.database.db.select().from(auditLog).where(eq(auditLog.entityId, id))).length;

    // Save portrait: 200, the portrait saved with its description and audit row, the typing kept, the enshrinee not saved.
    const auditsBefore = await audits();
    const saved = await edit([...typed, ["alt", "Ada at the plate"]], { name: "ada.jpg", bytes: await jpegWithGps("#553311", 60, 80) }, "save-portrait");
    expect(saved.status).toBe(200);
    const page = await saved.text();
    expect(page).toContain("Portrait saved.");
    typedKept(page);
    const stored = await row();
    expect(stored).toMatchObject({ fullName: "Ada Portrait", portraitAlt: "Ada at the plate" });
    expect(stored.portrait).toMatch(new RegExp(`^portraits/${id}/[0-9a-f-]{36}\\.jpg$`));
    expect((await sharp(path.join(mediaDir, stored.portrait!)).metadata()).exif).toBeUndefined();
    expect(page).toMatch(new RegExp(`src="/images/view/${stored.portrait}\\?height=\\d+" alt="Ada at the plate"`));
    expect(await audits()).toBe(auditsBefore + 1);

    // A refused file, a missing description, no file for a new portrait: 400 with the reason, the typing kept, nothing saved.
    const notImage = await edit([...typed, ["alt", "Evil"]], { name: "evil.jpg", bytes: Buffer.from("<?php echo 1; ?>".repeat(30)) }, "save-portrait");
    expect(notImage.status).toBe(400);
    const notImagePage = await notImage.text();
    expect(notImagePage).toContain("The file is not a JPEG, PNG or WebP photo: nothing was saved.");
    typedKept(notImagePage);
    const noAlt = await edit([...typed, ["alt", " "]], { name: "b.jpg", bytes: await jpegWithGps("#000000") }, "save-portrait");
    expect(noAlt.status).toBe(400);
    typedKept(await noAlt.text());
    expect(await row()).toMatchObject({ portrait: stored.portrait, portraitAlt: "Ada at the plate" });
    expect(readdirSync(path.join(mediaDir, "portraits", id))).toEqual([path.basename(stored.portrait!)]);

    // A member cannot save a portrait through the form.
    const outsider = await createStaffAccount(server.services, "member", { validThrough: dateFromToday(5) });
    expect((await edit([...typed, ["alt", "Member"]], { name: "m.jpg", bytes: await jpegWithGps("#111111") }, "save-portrait", outsider.cookie)).status).toBe(404);
    expect((await row()).portraitAlt).toBe("Ada at the plate");

    // A new file chosen and "Save enshrinee": the portrait and the enshrinee saved together.
    const both = await edit([...typed, ["alt", "Ada, 1936"]], { name: "c.jpg", bytes: await jpegWithGps("#664422") });
    expect(both.status).toBe(302);
    expect(both.headers.get("location")).toBe(`/admin/enshrinees/${id}?notice=saved`);
    const after = await row();
    expect(after).toMatchObject({ fullName: "Ada <Typed> Portrait", portraitAlt: "Ada, 1936" });
    expect(after.portrait).not.toBe(stored.portrait);
    expect(existsSync(path.join(mediaDir, stored.portrait!))).toBe(false);

    // Remove from the form: the typing kept.
    const removed = await edit(typed, null, "remove-portrait");
    expect(removed.status).toBe(200);
    typedKept(await removed.text());
    expect(await row()).toMatchObject({ portrait: null, portraitAlt: null });

    // The form's url-encoded posts stay page-form sized: 413 over 64 KB.
    const big = await call(curator.cookie, `/admin/enshrinees/${id}`, { method: "POST", body: "a=" + "b".repeat(70 * 1024), headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(big.status).toBe(413);
  });

  it("migration 0021 turns a plain biography into escaped HTML paragraphs", async () => {
    const db = server.services.database.db;
    const plainId = "00000000-0000-4000-8000-000000000021";
    await db.insert(enshrinees).values({ id: plainId, slug: "plain-bio-0021", fullName: "Plain Bio", firstName: "Plain", lastName: "Bio", biography: "Tom & Jerry <b>won</b>.\nSecond line.\n\n  Next paragraph.  \n\n\n" });
    const migration = readFileSync(path.resolve("drizzle/0021_enshrinee_portraits.sql"), "utf8").split("--> statement-breakpoint");
    const update = migration.find((s) => s.includes("UPDATE"))!;
    await db.execute(sql.raw(update));
    const [plain] = await db.select().from(enshrinees).where(eq(enshrinees.id, plainId));
    expect(plain.biographyHtml).toBe("<p>Tom &amp; Jerry &lt;b&gt;won&lt;/b&gt;.<br>Second line.</p><p>Next paragraph.</p>");
    await db.delete(enshrinees).where(eq(enshrinees.id, plainId));
  });
});
