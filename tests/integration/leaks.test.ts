/**
 * Leaks an attacker's probe found (decision 047), on both databases, as a
 * client sees them:
 *
 * - "Did you mean" offers only words of records visible now: not a scheduled record's words
 *   before its time (and its words once the time has passed), not those of a record made a draft
 *   again or moved to the trash.
 * - A sign-up replayed with its Idempotency-Key (the API's header, the admission form's hidden
 *   key) returns the stored answer but starts no session once the account's sessions were ended
 *   (logout, password change), and answers 410 without a session once the account was deleted.
 * - The photos of an exhibit made a draft, scheduled for later or moved to the trash answer 404
 *   to members and visitors; staff still see them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CategoryView, TeamView } from "~/shared/catalog-types";
import { PHOTO_HEIGHT } from "~/shared/images";
import { SERVER_MESSAGES } from "~/shared/messages";
import type { Publication } from "~/shared/publication";
import type { SearchAnswer } from "~/shared/search";
import { availableDrivers } from "../helpers/databases";
import { dateFromToday } from "../helpers/fixtures";
import { createPhotoTestExhibit, createStaffAccount, jpegWithGps, type StaffAccount } from "../helpers/admin-fixtures";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();
const HOUR = 3_600_000;
const PASSWORD = "Steel3rs!";
let seq = 0;

describe.each(drivers)("leaks found by an attacker's probe on %s", (kind) => {
  let server: TestServer;
  let clock = new Date();
  let curator: StaffAccount;
  let member: string;
  /** Where the test's exhibits go: the first team and category. */
  const place = { team: "", category: "" };

  const get = (path: string, cookie?: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { redirect: "manual", headers: { ...headers, ...(cookie ? { cookie } : {}) } });
  const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { method: "POST", redirect: "manual", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  const postForm = (path: string, fields: Record<string, string>, cookie?: string) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
      body: new URLSearchParams(fields).toString(),
    });
  /** The session cookies an answer sets (a cleared one, `museum_session=;`, is not one). */
  const sessionsSet = (res: Response) => res.headers.getSetCookie().filter((c) => /^museum_session=[^;]/.test(c));
  const cookieOf = (res: Response) => sessionsSet(res)[0].split(";")[0];
  const actor = () => ({ userId: curator.userId, email: curator.email });

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { seed: true, now: () => clock });
    curator = await createStaffAccount(server.services, "curator");
    member = (await createStaffAccount(server.services, "member", { validThrough: dateFromToday(60) })).cookie;
    place.team = ((await (await get("/api/teams/")).json()) as TeamView[])[0]._id;
    place.category = ((await (await get("/api/categories")).json()) as CategoryView[])[0]._id;
  }, 180_000);
  afterAll(() => server?.close());

  /** A new exhibit with no links, published as `publication` says; returns its id. */
  async function newExhibit(title: string, publication: Publication): Promise<string> {
    const saved = await server.services.admin.collection.exhibits.save(actor(), null, {
      teamId: place.team,
      categoryId: place.category,
      title,
      shortTitle: title,
      descriptionHtml: "<p>Words for members.</p>",
      thumbnail: "",
      thumbnailAlt: "",
      matchingPhoto: null,
      matchingPhotoAlt: null,
      active: true,
      year: 1950,
      favoriteStory: false,
      enshrineeIds: [],
      publication,
    });
    if (!saved.ok) throw new Error(saved.message);
    return saved.id;
  }

  /** Saves the exhibit again as it is, with another publication (the console's form). */
  async function republish(id: string, publication: Publication) {
    const e = await server.services.admin.collection.exhibits.get(id);
    if (!e) throw new Error("no such exhibit");
    const saved = await server.services.admin.collection.exhibits.save(actor(), id, {
      teamId: e.teamId,
      categoryId: e.categoryId,
      title: e.title,
      shortTitle: e.shortTitle,
      descriptionHtml: e.descriptionHtml ?? "<p></p>",
      thumbnail: e.thumbnail,
      thumbnailAlt: e.thumbnailAlt,
      matchingPhoto: e.matchingPhoto,
      matchingPhotoAlt: e.matchingPhotoAlt,
      active: e.active,
      year: e.year,
      favoriteStory: e.favoriteStory,
      enshrineeIds: e.enshrineeIds,
      publication,
    });
    if (!saved.ok) throw new Error(saved.message);
  }

  /** A bulk action of the console's exhibit list on one exhibit. */
  async function bulk(action: "publish" | "unpublish" | "move-to-trash", id: string) {
    const result = await server.services.admin.bulk.apply(actor(), "exhibit", action, [id], "");
    expect(result, action).toMatchObject({ ok: true });
  }

  describe('"Did you mean"', () => {
    /**
     * The attacker's probe: two misspelled words joined by `or`, the second one close to a word
     * of the demo collection (Clemente), so the corrected search has results and is offered. The
     * words the correction offers for the first one are what the lexicon gives away.
     */
    async function offeredFor(typo: string): Promise<string[]> {
      const answer = (await (await get(`/api/search?q=${encodeURIComponent(`${typo} or clementte`)}`)).json()) as SearchAnswer;
      expect(String(answer.didYouMean), "the probe's second word is corrected and found").toMatch(/clemente/);
      return (answer.didYouMean ?? "").split(/\s+/);
    }

    it("offers no word of a record scheduled for later, and offers it once its time has passed", async () => {
      const at = new Date(clock.getTime() + 2 * HOUR);
      await newExhibit("Quixotrel Pennant", { state: "scheduled", at });
      expect(await offeredFor("quixotral")).not.toContain("quixotrel");
      clock = new Date(at.getTime() + 60_000);
      await server.services.publisher.runOnce();
      expect(await offeredFor("quixotral")).toContain("quixotrel");
    });

    it("forgets the words of a record made a draft again", async () => {
      const id = await newExhibit("Vexilloquor Banner", { state: "published" });
      expect(await offeredFor("vexilloquar")).toContain("vexilloquor");
      await bulk("unpublish", id);
      expect(await offeredFor("vexilloquar")).not.toContain("vexilloquor");
      await bulk("publish", id);
      expect(await offeredFor("vexilloquar")).toContain("vexilloquor");
    });

    it("forgets the words of a record rescheduled for later and of one moved to the trash", async () => {
      const id = await newExhibit("Brambleworth Trophy", { state: "published" });
      expect(await offeredFor("bramblewurth")).toContain("brambleworth");
      await republish(id, { state: "scheduled", at: new Date(clock.getTime() + 5 * HOUR) });
      expect(await offeredFor("bramblewurth")).not.toContain("brambleworth");
      await republish(id, { state: "published" });
      expect(await offeredFor("bramblewurth")).toContain("brambleworth");
      await bulk("move-to-trash", id);
      expect(await offeredFor("bramblewurth")).not.toContain("brambleworth");
    });

    it("keeps a word that a visible record still has when another record with it goes", async () => {
      await newExhibit("Gallowglass Cup", { state: "published" });
      const second = await newExhibit("Gallowglass Plate", { state: "published" });
      await bulk("unpublish", second);
      expect(await offeredFor("gallowglas")).toContain("gallowglass");
    });
  });

  describe("a sign-up replayed with its key", () => {
    function person() {
      const email = `replay${++seq}.${Date.now()}@example.com`;
      return { firstName: "Rita", lastName: "Replay", emailAddress: email, emailAddressConfirm: email, password: PASSWORD, passwordConfirm: PASSWORD, termsAndConditions: true };
    }
    const keyed = () => ({ "Idempotency-Key": `key-${crypto.randomUUID()}` });
    const loggedInWith = async (cookie: string) => (await postJson("/api/users/relogin", {}, { cookie })).status;

    it("right after it was answered signs in again (a lost answer), with the same status and body", async () => {
      const p = person();
      const key = keyed();
      const first = await postJson("/api/users/", p, key);
      const again = await postJson("/api/users/", p, key);
      expect(again.status).toBe(201);
      expect(await again.json()).toEqual(await first.json());
      expect(await loggedInWith(cookieOf(again))).toBe(200);
    });

    it("after a logout answers the stored answer without a session", async () => {
      const p = person();
      const key = keyed();
      const first = await postJson("/api/users/", p, key);
      const body = await first.json();
      const out = await postJson("/api/users/logout", {}, { cookie: cookieOf(first) });
      expect(out.status).toBe(200);
      const again = await postJson("/api/users/", p, key);
      expect(again.status).toBe(201);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(await again.json()).toEqual(body);
      expect(sessionsSet(again)).toEqual([]);
    });

    it("after a password change answers the stored answer without a session", async () => {
      const p = person();
      const key = keyed();
      const first = await postJson("/api/users/", p, key);
      const changed = await postForm("/account/password", { currentPassword: PASSWORD, password: "NewPass12!", passwordConfirm: "NewPass12!" }, cookieOf(first));
      expect(changed.status).toBeLessThan(400);
      const again = await postJson("/api/users/", p, key);
      expect(again.status).toBe(201);
      expect(sessionsSet(again)).toEqual([]);
    });

    it("after the account was deleted answers 410 with a message, without a session", async () => {
      const p = person();
      const key = keyed();
      const first = await postJson("/api/users/", p, key);
      const deleted = await postForm("/account/delete", { currentPassword: PASSWORD }, cookieOf(first));
      expect(deleted.status).toBe(302);
      const again = await postJson("/api/users/", p, key);
      expect(again.status).toBe(410);
      expect(await again.json()).toEqual({ success: false, message: SERVER_MESSAGES.signUpAccountGone });
      expect(sessionsSet(again)).toEqual([]);
    });

    describe("the admission form", () => {
      async function renderedKey(): Promise<string> {
        const html = await (await get("/admission")).text();
        const key = /<input type="hidden" name="idempotencyKey" value="([^"]+)"/.exec(html)?.[1];
        expect(key).toBeTruthy();
        return key!;
      }
      const fields = async (p: ReturnType<typeof person>) => ({
        ...Object.fromEntries(Object.entries(p).map(([k, v]) => [k, v === true ? "on" : String(v)])),
        idempotencyKey: await renderedKey(),
      });

      it("posted again after a logout goes to payment without a session", async () => {
        const f = await fields(person());
        const first = await postForm("/admission", f);
        expect(first.status).toBe(302);
        const out = await postJson("/api/users/logout", {}, { cookie: cookieOf(first) });
        expect(out.status).toBe(200);
        const again = await postForm("/admission", f);
        expect(again.status).toBe(302);
        expect(again.headers.get("location")).toBe("/admission/payment");
        expect(sessionsSet(again)).toEqual([]);
      });

      it("posted again after the account was deleted says so with 410, without a session", async () => {
        const f = await fields(person());
        const first = await postForm("/admission", f);
        const deleted = await postForm("/account/delete", { currentPassword: PASSWORD }, cookieOf(first));
        expect(deleted.status).toBe(302);
        const again = await postForm("/admission", f);
        expect(again.status).toBe(410);
        expect(await again.text()).toContain(SERVER_MESSAGES.signUpAccountGone);
        expect(sessionsSet(again)).toEqual([]);
      });
    });
  });

  describe("photos of a record that is not public", () => {
    let exhibitId: string;
    let photo: string;
    let thumbnail: string;
    const image = (file: string, cookie?: string) => get(`/images/view/${file}?height=${PHOTO_HEIGHT}`, cookie, { accept: "image/jpeg" });
    /** What a member, a visitor and a curator get for the photo and the thumbnail. */
    async function answers() {
      const status = async (file: string, cookie?: string) => (await image(file, cookie)).status;
      // A staff session ends after 30 minutes idle on the moved clock: a fresh one each time.
      const staff = (await createStaffAccount(server.services, "curator")).cookie;
      return {
        member: [await status(photo, member), await status(thumbnail, member)],
        visitor: [await status(photo), await status(thumbnail)],
        curator: [await status(photo, staff), await status(thumbnail, staff)],
      };
    }
    const shown = { member: [200, 200], visitor: [403, 403], curator: [200, 200] };
    const hidden = { member: [404, 404], visitor: [404, 404], curator: [200, 200] };

    /** Uploads photos of these colors to the exhibit from the console. */
    async function upload(colors: string[]) {
      const form = new FormData();
      form.append("alt", "Team photo");
      for (const color of colors) form.append("photos", new Blob([new Uint8Array(await jpegWithGps(color))], { type: "image/jpeg" }), `${color.slice(1)}.jpg`);
      const uploader = await createStaffAccount(server.services, "curator");
      const uploaded = await fetch(`${server.url}/admin/exhibits/${exhibitId}/photos/upload`, { method: "POST", redirect: "manual", body: form, headers: { cookie: uploader.cookie } });
      expect(`${uploaded.status} ${uploaded.headers.get("location")}`).toBe(`303 /admin/exhibits/${exhibitId}/photos?upload=done`);
    }

    beforeAll(async () => {
      exhibitId = await createPhotoTestExhibit(server.services, curator, "Leaky Photo Exhibit", 1961);
      await upload(["#aa0000", "#00aa00"]);
      const state = await server.services.admin.photos.get(exhibitId);
      thumbnail = state!.thumbnail;
      photo = state!.photos.map((p) => p.file).find((f) => f !== thumbnail)!;
      expect([thumbnail, photo].every(Boolean)).toBe(true);
    }, 60_000);

    it("are shown to members while the exhibit is published", async () => {
      await bulk("publish", exhibitId);
      expect(await answers()).toEqual(shown);
    });

    it("answer 404 to members and visitors once the exhibit is a draft; staff still see them", async () => {
      await bulk("unpublish", exhibitId);
      expect(await answers()).toEqual(hidden);
      const answer = await image(photo, member);
      expect(await answer.json()).toEqual({ message: "Image not found." });
      await bulk("publish", exhibitId);
      expect(await answers()).toEqual(shown);
    });

    it("answer 404 while the exhibit is scheduled for later, and are shown once its time has passed", async () => {
      const at = new Date(clock.getTime() + HOUR);
      await republish(exhibitId, { state: "scheduled", at });
      expect(await answers()).toEqual(hidden);
      clock = new Date(at.getTime() + 60_000);
      await server.services.publisher.runOnce();
      expect(await answers()).toEqual(shown);
    });

    it("answer 404 once the exhibit is in the trash", async () => {
      await bulk("move-to-trash", exhibitId);
      expect(await answers()).toEqual(hidden);
    });
  });
});
