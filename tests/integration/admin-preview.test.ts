/**
 * The console's preview of teams, categories, enshrinees and the home banner (decision
 * 015), on both databases: staff see a saved record, or the edit form's values before saving, as a
 * visitor and as a member, drawn by the public pages' components; nothing is written, the public
 * site does not change, the answer is never stored, and nobody but staff gets it.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EnshrineeSummary, TeamView } from "~/shared/catalog-types";
import { bannerSlides, enshrinees, teams } from "../../server/db/schema";
import { createStaffAccount, previewPanes, type StaffAccount } from "../helpers/admin-fixtures";
import { availableDrivers } from "../helpers/databases";
import { dateFromToday } from "../helpers/fixtures";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();
/** Text as React writes it into HTML. */
const html = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");

describe.each(drivers)("console preview on %s", (kind) => {
  let server: TestServer;
  let curator: StaffAccount;
  let member: string;
  let team: TeamView;
  let enshrinee: EnshrineeSummary & { biography: string };
  let categoryId: string;
  const call = (cookie: string | undefined, p: string, init: RequestInit = {}) =>
    fetch(`${server.url}${p}`, { redirect: "manual", ...init, headers: { ...(cookie ? { cookie } : {}), ...(init.headers as Record<string, string>) } });
  const post = (cookie: string | undefined, p: string, fields: Record<string, string>) =>
    call(cookie, p, { method: "POST", body: new URLSearchParams(fields), headers: { "content-type": "application/x-www-form-urlencoded" } });

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { seed: true, listen: true });
    curator = await createStaffAccount(server.services, "curator", { firstName: "Clara" });
    member = (await createStaffAccount(server.services, "member", { validThrough: dateFromToday(30) })).cookie;
    [team] = (await (await call(undefined, "/api/teams/")).json()) as TeamView[];
    const db = server.services.database.db;
    // An enshrinee with a biography (members only) and at least one exhibit.
    const all = await server.services.catalog.listEnshrinees();
    for (const e of all) {
      const full = await server.services.catalog.getEnshrinee(e._id, true);
      if (full?.biography && full.exhibits.length) {
        enshrinee = { ...e, biography: full.biography };
        break;
      }
    }
    const [category] = await server.services.catalog.categoriesWithActiveExhibits(team._id);
    categoryId = category._id;
    expect(enshrinee && categoryId && (await db.select().from(enshrinees).where(eq(enshrinees.id, enshrinee._id))).length).toBeTruthy();
  }, 120_000);
  afterAll(() => server?.close());

  it("an enshrinee as saved: the biography only in the member's view, Exhibits and Mentions in both", async () => {
    const answer = await call(curator.cookie, `/admin/enshrinees/${enshrinee._id}/preview`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toContain("no-store");
    const { visitor, member: memberView } = previewPanes(await answer.text());
    // A stretch of the biography without quotes or ampersands (rich text keeps quotes unescaped).
    const firstWords = html(enshrinee.biography.split(/["'&<>\n]/).sort((a, b) => b.length - a.length)[0].slice(0, 40));
    expect(memberView).toContain('data-testid="biography"');
    expect(memberView).toContain(firstWords);
    expect(visitor).not.toContain('data-testid="biography"');
    expect(visitor).not.toContain(firstWords);
    expect(visitor).toContain("Exhibits and Mentions");
    expect(memberView).toContain("Exhibits and Mentions");
  });

  it("an enshrinee's unsaved values: shown in the preview, neither written nor on the public page", async () => {
    const answer = await post(curator.cookie, `/admin/enshrinees/${enshrinee._id}/preview`, {
      fullName: "Draft Fullname Notsaved",
      firstName: "Draft",
      lastName: "Notsaved",
      biography: "A biography typed but not saved yet.",
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toContain("no-store");
    const { visitor, member: memberView } = previewPanes(await answer.text());
    expect(visitor).toContain("Draft Fullname Notsaved");
    expect(visitor).not.toContain("A biography typed but not saved yet.");
    expect(memberView).toContain("A biography typed but not saved yet.");
    const [row] = await server.services.database.db.select().from(enshrinees).where(eq(enshrinees.id, enshrinee._id));
    expect(row.fullName).toBe(enshrinee.fullName);
    const publicPage = await (await call(member, `/enshrinees/x/${enshrinee._id}`)).text();
    expect(publicPage).not.toContain("Draft Fullname Notsaved");
  });

  it("a team's unsaved values on the team page, with its categories; a new team too", async () => {
    const fields = { name: "Draft Team Name", league: "NFL", logo: "", headline: "A headline not saved yet", description: "Summary words not saved.", sortOrder: "3" };
    const answer = await post(curator.cookie, `/admin/teams/${team._id}/preview`, fields);
    const body = await answer.text();
    expect(answer.status, body.slice(body.indexOf('role="alert"'), body.indexOf('role="alert"') + 200)).toBe(200);
    const { visitor, member: memberView } = previewPanes(body);
    for (const pane of [visitor, memberView]) {
      expect(pane).toContain("A headline not saved yet");
      expect(pane).toContain("Exhibit Categories");
      expect(pane).toContain(`/teams/${team._id}/${categoryId}`);
    }
    const [row] = await server.services.database.db.select().from(teams).where(eq(teams.id, team._id));
    expect(row.headline).toBe(team.headline);
    expect(await (await call(undefined, `/teams/${team._id}`)).text()).not.toContain("A headline not saved yet");
    const freshAnswer = await post(curator.cookie, "/admin/teams/new/preview", fields);
    const freshBody = await freshAnswer.text();
    expect(freshAnswer.status, freshBody.slice(0, 300)).toBe(200);
    const fresh = previewPanes(freshBody);
    expect(fresh.member).toContain("Draft Team Name");
  });

  it("a category under its team: short titles and the ticket banner for the visitor, exhibit cards for the member", async () => {
    const saved = await (await call(curator.cookie, `/admin/categories/${categoryId}/preview?team=${team._id}`)).text();
    const { visitor, member: memberView } = previewPanes(saved);
    expect(visitor).toContain(team.name);
    expect(visitor).toContain("exhibit photos and full exhibit texts"); // the ticket banner
    expect(memberView).not.toContain("exhibit photos and full exhibit texts");
    const draft = previewPanes(await (await post(curator.cookie, `/admin/categories/${categoryId}/preview`, { categoryName: "Renamed Not Saved", sortOrder: "1" })).text());
    expect(draft.visitor).toContain("Renamed Not Saved");
    expect(draft.member).toContain("Renamed Not Saved");
  });

  it("the home banner with a slide not saved yet, desktop and mobile, as a visitor and as a member", async () => {
    const before = await server.services.database.db.select().from(bannerSlides);
    const page = await (await post(curator.cookie, "/admin/banner/preview", { intent: "add", variant: "mobile", file: "banners/mobile-2.svg", alt: "A slide not saved yet" })).text();
    const { visitor, member: memberView } = previewPanes(page);
    expect(visitor).toContain("Welcome to the Pittsburgh Sports Museum &amp; Hall of Fame");
    expect(memberView).toContain("Welcome to the museum, CLARA!");
    expect(memberView).toContain("A slide not saved yet");
    expect(page.slice(page.indexOf('data-testid="preview-mobile-slides"'))).toContain("A slide not saved yet");
    expect(page.slice(page.indexOf('data-testid="preview-desktop-slides"'), page.indexOf('data-testid="preview-mobile-slides"'))).not.toContain("A slide not saved yet");
    expect(await server.services.database.db.select().from(bannerSlides)).toEqual(before);
    expect(await (await call(undefined, "/")).text()).not.toContain("A slide not saved yet");
  });

  it("refuses bad values with a message (400) and unknown records with 404", async () => {
    const bad = await post(curator.cookie, `/admin/teams/${team._id}/preview`, { name: "", league: "NFL", logo: "", headline: "H", description: "D", sortOrder: "0" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('role="alert"');
    // A hand-made post that leaves out a field the form always sends: the field's name, not Zod's wording.
    const partial = await post(curator.cookie, `/admin/teams/${team._id}/preview`, { name: "N", league: "NFL", headline: "H", description: "D", sortOrder: "0" });
    expect(partial.status).toBe(400);
    const partialPage = await partial.text();
    expect(partialPage).toContain("Logo was not sent. Please reload the form and try again.");
    expect(partialPage).not.toContain("Invalid input");
    expect((await call(curator.cookie, "/admin/enshrinees/00000000-0000-4000-8000-000000000000/preview")).status).toBe(404);
    expect((await call(curator.cookie, "/admin/teams/not-a-uuid/preview")).status).toBe(404);
    expect(await (await call(curator.cookie, "/admin/teams/new/preview")).text()).toContain("Nothing is saved yet: fill in the form and press Preview without saving.");
  });

  it("is nobody else's: a member gets 404, a signed-out visitor is sent to sign in, for pages, data calls and drafts", async () => {
    const addresses = [`/admin/teams/${team._id}/preview`, `/admin/categories/${categoryId}/preview`, `/admin/enshrinees/${enshrinee._id}/preview`, "/admin/banner/preview"];
    for (const address of addresses) {
      for (const p of [address, `${address}.data`]) {
        expect((await call(member, p)).status, p).toBe(404);
        const visitor = await call(undefined, p);
        if (p.endsWith(".data")) expect(await visitor.text(), p).not.toContain("Exhibits and Mentions");
        else expect(visitor.headers.get("location"), p).toMatch(/^\/login\?redirectTo=/);
      }
      const draft = await post(member, address, { fullName: "X", firstName: "X", lastName: "X", biography: "Member draft", categoryName: "X", name: "X", league: "X", logo: "", headline: "X", description: "X", sortOrder: "0" });
      expect(draft.status, address).toBe(404);
      expect(await draft.text()).not.toContain("Member draft");
    }
  });
});
