/**
 * The anonymous page cache in the real site on both databases: visitors share a stored page,
 * members never see it nor fill it, its inline scripts run under a hash-based CSP, and a page
 * shown without some data is not kept.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExhibitView, TeamView } from "~/shared/catalog-types";
import { exhibitPath, teamPath } from "~/shared/exhibit-links";
import { eq } from "drizzle-orm";
import { teams, users } from "../../server/db/schema";
import { availableDrivers } from "../helpers/databases";
import { createSignedInAccount, dateFromToday } from "../helpers/fixtures";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();

/** The executable inline scripts of a page and the CSP hash each one needs. */
function inlineScripts(html: string) {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter(([, attrs, text]) => !/src=|application\/ld\+json/.test(attrs) && text !== "")
    .map(([tag, , text]) => ({ tag, hash: `'sha256-${createHash("sha256").update(text).digest("base64")}'` }));
}

describe.each(drivers)("anonymous page cache on %s", (kind) => {
  let server: TestServer;
  let member: string;
  let exhibit: ExhibitView;
  let description: string;
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers });

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { seed: true });
    member = (await createSignedInAccount(server.services, { validThrough: dateFromToday(30) })).cookie;
    const all = (await (await get("/api/exhibits/?active=true", { cookie: member })).json()) as ExhibitView[];
    exhibit = all.find((e) => (e.description ?? "").length > 200)!;
    description = /[A-Za-z0-9][A-Za-z0-9 ,.;:()-]{38,}[A-Za-z0-9]/.exec(exhibit.description!)![0].slice(0, 40);
  }, 120_000);
  afterAll(() => server?.close());

  it("serves visitors one stored exhibit page that holds nothing member-only", async () => {
    const path = exhibitPath(exhibit);
    const first = await get(path);
    const second = await get(path);
    expect(first.headers.get("x-cache")).toBe("MISS");
    expect(second.headers.get("x-cache")).toBe("HIT");
    const html = await second.text();
    expect(html).toBe(await first.text());
    expect(html).toContain(exhibit.title.replace(/&/g, "&amp;").replace(/'/g, "&#x27;"));
    expect(html).not.toContain(description);
  });

  it("keeps a page only under the address built from its records, not under free text or odd route lists", async () => {
    const real = exhibitPath(exhibit);
    const forged = `/teams/${exhibit.team._id}/anything-at-all/${exhibit._id}`;
    expect(forged).not.toBe(real);
    const first = await get(forged);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-cache")).toBe("BYPASS");
    expect((await get(forged)).headers.get("x-cache")).toBe("BYPASS");
    const upper = `${teamPath(exhibit.team._id.toUpperCase())}`;
    expect((await get(upper)).headers.get("x-cache")).toBe("BYPASS");
    const data = `${teamPath(exhibit.team._id)}.data`;
    expect((await get(`${data}?_routes=root,routes/team`)).headers.get("x-cache")).toMatch(/MISS|HIT/);
    expect((await get(`${data}?_routes=${"x".repeat(40)}`)).headers.get("x-cache")).toBe("BYPASS");
    expect((await get(`${data}?_routes=root,routes/team,routes/home`)).headers.get("x-cache")).toBe("BYPASS");
  });

  it("serves members their tier's page and visitors theirs: member content never reaches a visitor", async () => {
    const path = exhibitPath(exhibit);
    await get(path);
    const asMember = await get(path, { cookie: member });
    expect(asMember.headers.get("x-cache")).toMatch(/MISS|HIT/);
    expect(asMember.headers.get("cache-control")).toBe("private, no-store");
    expect(await asMember.text()).toContain(description);
    expect((await get(path, { cookie: member })).headers.get("x-cache")).toBe("HIT");
    const asVisitor = await get(path);
    expect(asVisitor.headers.get("x-cache")).toBe("HIT");
    expect(await asVisitor.text()).not.toContain(description);
  });

  it("never shows one member's name to another, and an expired or unpaid account gets no member content", async () => {
    const jane = await createSignedInAccount(server.services, { firstName: "Janeq", validThrough: dateFromToday(30) });
    const john = await createSignedInAccount(server.services, { firstName: "Johnq", validThrough: dateFromToday(30) });
    const lapsed = await createSignedInAccount(server.services, { firstName: "Lapsedq", validThrough: dateFromToday(-1) });
    const unpaid = await createSignedInAccount(server.services, { firstName: "Unpaidq" });
    for (const _ of [1, 2]) {
      const a = await (await get("/", { cookie: jane.cookie })).text();
      const b = await (await get("/", { cookie: john.cookie })).text();
      expect(a).toContain("JANEQ");
      expect(a).not.toMatch(/johnq/i);
      expect(b).toContain("JOHNQ");
      expect(b).not.toMatch(/janeq/i);
    }
    const path = exhibitPath(exhibit);
    for (const account of [lapsed, unpaid]) {
      const html = await (await get(path, { cookie: account.cookie })).text();
      expect(html).not.toContain(description);
      expect(html).toContain('data-testid="ticket-banner"');
    }
  });

  it("lets logout, expiry and a refund take effect on the next request", async () => {
    const path = exhibitPath(exhibit);
    const account = await createSignedInAccount(server.services, { firstName: "Ruthq", validThrough: dateFromToday(30) });
    expect(await (await get(path, { cookie: account.cookie })).text()).toContain(description);
    // Expiry (or a refund, which moves the end date back): the very next request is a visitor's.
    await server.services.database.db.update(users).set({ validThrough: dateFromToday(-1) }).where(eq(users.id, account.userId));
    expect(await (await get(path, { cookie: account.cookie })).text()).not.toContain(description);
    await server.services.database.db.update(users).set({ validThrough: dateFromToday(30) }).where(eq(users.id, account.userId));
    expect(await (await get(path, { cookie: account.cookie })).text()).toContain(description);
    const out = await fetch(`${server.url}/logout`, { method: "POST", headers: { cookie: account.cookie, "content-type": "application/x-www-form-urlencoded" }, redirect: "manual" });
    expect(out.status).toBe(302);
    const after = await (await get(path, { cookie: account.cookie })).text();
    expect(after).not.toContain(description);
    expect(after).not.toMatch(/ruthq/i);
  });

  it("keeps the loader data of client-side navigation gated too", async () => {
    const path = `${exhibitPath(exhibit)}.data`;
    await get(path);
    const visitor = await get(path);
    expect(visitor.headers.get("x-cache")).toBe("HIT");
    expect(await visitor.text()).not.toContain(description);
    expect(await (await get(path, { cookie: member })).text()).toContain(description);
  });

  it("allows exactly the stored page's inline scripts, by hash, in place of a nonce", async () => {
    const res = await get("/");
    const csp = res.headers.get("content-security-policy") ?? "";
    const html = await res.text();
    const scripts = inlineScripts(html);
    expect(scripts.length).toBeGreaterThan(0);
    const scriptSrc = csp.split(";").find((d) => d.startsWith("script-src"))!.split(" ");
    expect(scriptSrc.filter((s) => s.startsWith("'sha256-")).sort()).toEqual([...new Set(scripts.map((s) => s.hash))].sort());
    expect(csp).not.toContain("'nonce-");
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    for (const { tag } of scripts) expect(tag).not.toContain("nonce=");
  });

  it("leaves forms and account pages to a fresh render with a nonce", async () => {
    for (const path of ["/contact", "/login", "/admission", "/subscribe"]) {
      const res = await get(path);
      expect(res.headers.get("x-cache"), path).toBeNull();
      expect(res.headers.get("content-security-policy"), path).toMatch(/'nonce-[^']+'/);
    }
  });

  it("does not keep a page shown without data after a failed read", async () => {
    const [team] = (await (await get("/api/teams/")).json()) as TeamView[];
    const { catalog } = server.services;
    const read = catalog.categoriesWithActiveExhibits;
    catalog.categoriesWithActiveExhibits = () => Promise.reject(new Error("database went away"));
    try {
      const partial = await get(teamPath(team._id));
      expect(partial.status).toBe(200);
      expect(partial.headers.get("x-cache")).toBe("BYPASS");
      expect(await partial.text()).not.toMatch(/href="\/teams\/[^/"]+\/[^/"]+"/);
    } finally {
      catalog.categoriesWithActiveExhibits = read;
    }
    const whole = await get(teamPath(team._id));
    expect(whole.headers.get("x-cache")).toBe("MISS");
    expect(await whole.text()).toMatch(/href="\/teams\/[^/"]+\/[^/"]+"/);
  });

  it("renders the stored pages again in the background after a change: the next readers get the new page from the store", async () => {
    const [team] = (await (await get("/api/teams/")).json()) as TeamView[];
    const path = teamPath(team._id);
    for (const headers of [{}, { cookie: member }] as Record<string, string>[]) {
      await get(path, headers);
      expect((await get(path, headers)).headers.get("x-cache")).toBe("HIT");
    }
    const headline = `Renewed in the background ${Date.now()}`;
    await server.services.database.db.update(teams).set({ headline }).where(eq(teams.id, team._id));
    await server.services.catalogChanges.notify();
    // Nobody asks while the pages render again.
    await server.pagesRefreshed();
    for (const headers of [{}, { cookie: member }] as Record<string, string>[]) {
      const res = await get(path, headers);
      expect(res.headers.get("x-cache")).toBe("HIT");
      const html = await res.text();
      expect(html).toContain(headline);
    }
    // The member's page was renewed as the member tier's page.
    expect(await (await get(exhibitPath(exhibit), { cookie: member })).text()).toContain(description);
  });

  it("answers an unknown exhibit with the 404 page without storing it", async () => {
    const path = "/teams/00000000-0000-4000-8000-000000000000/nothing/00000000-0000-4000-8000-000000000000";
    for (const _ of [1, 2]) {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(res.headers.get("x-cache")).toBe("BYPASS");
      expect(await res.text()).toContain("404 PAGE NOT FOUND");
    }
  });
});

describe.each(drivers)("page cache turned off on %s", (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { PAGE_CACHE_SECONDS: "0" });
  }, 120_000);
  afterAll(() => server?.close());

  it("renders every visitor's page afresh with a nonce", async () => {
    for (const _ of [1, 2]) {
      const res = await fetch(`${server.url}/about`);
      expect(res.headers.get("x-cache")).toBeNull();
      expect(res.headers.get("content-security-policy")).toMatch(/'nonce-[^']+'/);
    }
  });
});
