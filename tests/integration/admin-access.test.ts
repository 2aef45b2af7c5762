/**
 * The role walk: every console page, data call and action as a visitor, a member, an expired
 * account, a curator, an admin and a deactivated admin, on both databases. Visitors are sent to
 * /login and back; members get 404 everywhere; a curator gets 404 at admin-only areas.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { ConsoleArea } from "~/shared/console-areas";
import { users } from "../../server/db/schema";
import { createStaffAccount, type StaffAccount } from "../helpers/admin-fixtures";
import { availableDrivers } from "../helpers/databases";
import { dateFromToday } from "../helpers/fixtures";
import { loadServerBuild, startTestServer, type TestServer } from "../helpers/test-server";
import { CONSOLE_ROUTES } from "./admin-routes";

const drivers = await availableDrivers();

type Persona = "visitor" | "member" | "expired" | "curator" | "admin" | "deactivated";

describe("the console's route table", () => {
  it("lists every /admin route of the build in the role walk", async () => {
    const build = await loadServerBuild();
    const consoleIds = Object.keys(build.routes).filter((id) => id.startsWith("routes/admin/"));
    expect(consoleIds.length).toBeGreaterThan(0);
    expect(consoleIds.filter((id) => !CONSOLE_ROUTES.some((r) => r.id === id))).toEqual([]);
  });
});

describe.each(drivers)("who may open the console on %s", (kind) => {
  let server: TestServer;
  const cookies = {} as Record<Persona, string | undefined>;
  let exhibitId = "";
  let teamId = "";
  let categoryId = "";
  let enshrineeId = "";
  let memberId = "";
  let messageId = "";
  /** Each record's first version (decision 030), by placeholder. */
  const versionIds: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { seed: false });
    const s = server.services;
    cookies.visitor = undefined;
    cookies.member = (await createStaffAccount(s, "member", { validThrough: dateFromToday(30) })).cookie;
    cookies.expired = (await createStaffAccount(s, "member", { validThrough: dateFromToday(-3) })).cookie;
    cookies.curator = (await createStaffAccount(s, "curator")).cookie;
    cookies.admin = (await createStaffAccount(s, "admin")).cookie;
    const deactivated: StaffAccount = await createStaffAccount(s, "admin");
    await s.database.db.update(users).set({ deactivatedAt: new Date() }).where(eq(users.id, deactivated.userId));
    cookies.deactivated = deactivated.cookie;
    // One exhibit for the routes that show a record.
    const actor = { userId: null, email: "role-walk" };
    const team = await s.admin.collection.teams.save(actor, null, { name: "Walk Team", league: "NFL", logo: "", headline: "H", description: "D", sortOrder: 0 });
    const category = await s.admin.collection.categories.save(actor, null, { categoryName: "Walk Category", sortOrder: 0 });
    const exhibit = await s.admin.collection.exhibits.save(actor, null, {
      teamId: team.ok ? team.id : "",
      categoryId: category.ok ? category.id : "",
      title: "Walk Exhibit",
      shortTitle: "Walk",
      descriptionHtml: "",
      thumbnail: "",
      thumbnailAlt: "",
      matchingPhoto: null,
      matchingPhotoAlt: null,
      active: true,
      year: 1990,
      favoriteStory: false,
      enshrineeIds: [],
    });
    exhibitId = exhibit.ok ? exhibit.id : "";
    teamId = team.ok ? team.id : "";
    categoryId = category.ok ? category.id : "";
    const enshrinee = await s.admin.collection.enshrinees.save(actor, null, { fullName: "Walk Person", firstName: "Walk", lastName: "Person", biography: "B" });
    enshrineeId = enshrinee.ok ? enshrinee.id : "";
    for (const [entity, id] of [["team", teamId], ["category", categoryId], ["exhibit", exhibitId], ["enshrinee", enshrineeId]] as const) versionIds[`{${entity}Version}`] = (await s.admin.versions.list(entity, id))[0].id;
    // A banner version: a slide added to the mobile banner.
    await s.admin.collection.banner.edit(actor, "mobile", { kind: "add", slide: { variant: "mobile", file: "banners/walk.jpg", alt: "Walk slide", width: 800, height: 600 } });
    versionIds["{bannerVersion}"] = (await s.admin.versions.list("banner", "mobile"))[0].id;
    memberId = (await createStaffAccount(s, "member", { firstName: "Walker" })).userId;
    messageId = (await s.contact.submit({ firstName: "Wanda", lastName: "W", email: "wanda@example.com", subject: "Question", message: "Hello", subscribe: false } as never, { email: false, subscription: false })).id;
  }, 120_000);
  afterAll(() => server?.close());

  const request = (persona: Persona, path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      redirect: "manual",
      ...init,
      headers: { ...(cookies[persona] ? { cookie: cookies[persona]! } : {}), ...(init.headers as Record<string, string>) },
    });
  const post = (persona: Persona, path: string, fields: Record<string, string>) =>
    request(persona, path, { method: "POST", body: new URLSearchParams(fields), headers: { "content-type": "application/x-www-form-urlencoded" } });

  /**
   * Decision 015, written out here rather than read from the console's table: a curator edits the
   * collection and the banner and reads the inbox and the audit log; an admin opens everything.
   */
  const CURATOR_AREAS: readonly ConsoleArea[] = ["dashboard", "collection", "banner", "inbox", "audit"];
  function allowed(persona: Persona, area: ConsoleArea) {
    return persona === "admin" || (persona === "curator" && CURATOR_AREAS.includes(area));
  }

  for (const persona of ["visitor", "member", "expired", "curator", "admin", "deactivated"] as const) {
    it(`${persona}: pages, data calls and actions`, async () => {
      for (const template of CONSOLE_ROUTES) {
        const route = { ...template, path: template.path.replace("{exhibit}", exhibitId).replace("{team}", teamId).replace("{category}", categoryId).replace("{enshrinee}", enshrineeId).replace("{member}", memberId).replace("{message}", messageId).replace(/\{\w+Version\}/, (p) => versionIds[p]) };
        const page = await request(persona, route.path);
        const where = `${persona} GET ${route.path}`;
        if (persona === "visitor" || persona === "deactivated") {
          expect(page.status, where).toBe(302);
          expect(page.headers.get("location"), where).toBe(`/login?redirectTo=${encodeURIComponent(route.path)}`);
        } else if (allowed(persona, route.area)) {
          expect(page.status, where).toBe(route.allowedGetStatus ?? 200);
          if (route.resource) expect(page.headers.get("content-type"), where).toContain("text/csv");
          else if (!route.allowedGetStatus) expect(await page.text(), where).toContain('data-testid="console"');
        } else {
          expect(page.status, where).toBe(404);
          expect(await page.text(), where).not.toContain('data-testid="console"');
        }

        if (route.resource) continue;
        // The loader data call of this route alone (what client navigation fetches).
        const data = await request(persona, `${route.path}.data?_routes=${encodeURIComponent(route.id)}`);
        const dataWhere = `${persona} GET ${route.path}.data (${route.id})`;
        const body = await data.text();
        if (persona === "visitor" || persona === "deactivated") {
          expect(body, dataWhere).toContain("/login?redirectTo=");
        } else if (allowed(persona, route.area)) {
          // A route that answers with a redirect says so in a 202 single-fetch answer.
          expect(data.status, dataWhere).toBe(route.allowedGetStatus ? 202 : 200);
        } else {
          expect(data.status, dataWhere).toBe(404);
        }

        if (!route.post) continue;
        const answer = await post(persona, route.path, route.post);
        const postWhere = `${persona} POST ${route.path}`;
        if (persona === "visitor" || persona === "deactivated") {
          expect(answer.status, postWhere).toBe(302);
          expect(answer.headers.get("location"), postWhere).toMatch(/^\/login\?redirectTo=/);
        } else if (allowed(persona, route.area)) {
          expect(answer.status, postWhere).toBe(route.allowedPostStatus ?? 200);
        } else {
          expect(answer.status, postWhere).toBe(404);
        }
      }
    });
  }

  it("answers the removed upload routes (decision 039) like any guessed console address, for every persona", async () => {
    /** What a client sees of an address: the page, its data call, a form post and a multipart post. */
    const answers = async (persona: Persona, path: string) => {
      const page = await request(persona, path);
      const html = await page.text();
      const [pathname, query] = path.split("?");
      const data = await request(persona, `${pathname}.data${query ? `?${query}` : ""}`);
      const dataBody = await data.text();
      const form = await post(persona, path, { intent: "nothing" });
      await form.arrayBuffer();
      const multipart = new FormData();
      multipart.append("image", new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: "image/jpeg" }), "x.jpg");
      const upload = await request(persona, path, { method: "POST", body: multipart });
      return [
        `GET ${page.status} ${page.headers.get("content-type")} ${page.headers.get("location")} ${html.includes('data-testid="console"') ? "console" : "no console"} ${/<title>[^<]*<\/title>/.exec(html)?.[0]}`,
        `GET .data ${data.status} ${dataBody.includes('"routes/not-found"') ? "not-found" : dataBody.slice(0, 80)}`,
        `POST ${form.status} ${form.headers.get("location")}`,
        `POST multipart ${upload.status} ${await upload.text()}`,
      ];
    };
    for (const persona of ["visitor", "member", "curator", "admin"] as const) {
      const guessed = await answers(persona, "/admin/no-such-page");
      expect(guessed[0], persona).toMatch(/^GET 404 text\/html.* null no console <title>Page not found/);
      expect(guessed.slice(1), persona).toEqual(["GET .data 200 not-found", "POST 404 null", "POST multipart 415 This address accepts only application/x-www-form-urlencoded."]);
      expect(await answers(persona, "/admin/media/upload"), `${persona} /admin/media/upload`).toEqual(guessed);
      expect(await answers(persona, "/admin/media/upload?folder=banners"), `${persona} /admin/media/upload?folder=banners`).toEqual(guessed);
      expect(await answers(persona, `/admin/enshrinees/${enshrineeId}/portrait`), `${persona} /admin/enshrinees/:id/portrait`).toEqual(await answers(persona, `/admin/enshrinees/${enshrineeId}/no-such-page`));
      expect(await answers(persona, `/admin/enshrinees/${enshrineeId}/portrait`), `${persona} /admin/enshrinees/:id/portrait`).toEqual(guessed);
    }
  });

  it("a curator's navigation shows no admin-only area; an admin's shows them all", async () => {
    const curatorPage = await (await request("curator", "/admin")).text();
    expect(curatorPage).toContain('href="/admin/audit"');
    expect(curatorPage).not.toContain('href="/admin/staff"');
    const adminPage = await (await request("admin", "/admin")).text();
    expect(adminPage).toContain('href="/admin/staff"');
  });
});
