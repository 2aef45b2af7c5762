/**
 * Route policy beside the route (decision 022), through HTTP: a path
 * written in another case, with a trailing slash, percent-encoded or as a `.data` call runs the
 * same route as its canonical spelling, so it meets the same rate limit (the same 429 after the
 * same count, counted together), the same body limit (413/415), the same page cache entry
 * (X-Cache) and the same Cross-Origin-Opener-Policy. Every route of the manifest is tried.
 */
import { sql } from "drizzle-orm";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TeamView } from "~/shared/catalog-types";
import { SERVER_MESSAGES } from "~/shared/messages";
import { queryRows } from "../../server/db/client";
import { availableDrivers } from "../helpers/databases";
import { loadServerBuild, startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();
const build = await loadServerBuild();
const PASSWORD = "Steel3rs!";
const ID = "0b0f1c3e-5a5e-4a57-9f0e-2f1f7f2a9c11";

/** A concrete address for every route of the build: params filled in, `*` as an unknown page. */
function routeAddresses(b: ServerBuild): { id: string; path: string }[] {
  const full = (id: string | undefined): string[] => {
    const r = id ? b.routes[id] : undefined;
    return r ? [...full(r.parentId), ...(r.path ? [r.path] : [])] : [];
  };
  return Object.keys(b.routes)
    .filter((id) => !Object.values(b.routes).some((r) => r?.parentId === id && r.index))
    .map((id) => ({ id, path: `/${full(id).join("/")}`.replace(/:[A-Za-z]+/g, ID).replace(/\*$/, "no-such-page") }));
}

/** The same address in other spellings: upper case, a trailing slash, the first letter of a static segment percent-encoded. */
function spellings(path: string): string[] {
  if (path === "/") return [];
  const segments = path.split("/");
  const i = segments.findIndex((s) => /^[a-z]/.test(s) && s !== ID);
  const encoded = segments.map((s, j) => (j === i ? `%${s.charCodeAt(0).toString(16).toUpperCase()}${s.slice(1)}` : s)).join("/");
  return [path.toUpperCase(), `${path}/`, ...(i >= 0 ? [encoded] : [])];
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe("the route addresses the tests use", () => {
  it("covers every route and spells each one differently", () => {
    const all = routeAddresses(build);
    expect(all.find((r) => r.id === "routes/login")?.path).toBe("/login");
    expect(spellings("/login")).toEqual(["/LOGIN", "/login/", "/%6Cogin"]);
    expect(spellings(`/${ID}/${ID}/exhibit/${ID}`)[2]).toBe(`/${ID}/${ID}/%65xhibit/${ID}`);
  });
});

// On one database: a spelling is resolved before any query, and the rate limits' counts are kept
// alike on both (tests/integration/host-hardening.test.ts and login-throttling.test.ts run them on
// each). PostgreSQL when it is reachable: the store that several processes share.
describe.each([drivers.at(-1)!])("route policy on %s", (kind) => {
  /** Real limits; the test client stands behind a proxy on loopback, so each test picks its own address. */
  let limited: TestServer;
  /** Relaxed limits and the demo collection: one address may try every route. */
  let relaxed: TestServer;
  let ip = 0;
  const nextIp = () => `198.51.100.${++ip}`;

  beforeAll(async () => {
    limited = await startTestServer(kind, { RATE_LIMIT_RELAXED: "false", TRUST_PROXY: "loopback" }, { seed: false });
    relaxed = await startTestServer(kind, { TRUST_PROXY: "loopback" }, { seed: true });
  }, 180_000);
  afterAll(async () => {
    await limited?.close();
    await relaxed?.close();
  });

  const send = (s: TestServer, method: string, path: string, from: string, body?: string, type = "application/x-www-form-urlencoded") =>
    fetch(`${s.url}${path}`, { method, redirect: "manual", headers: { "x-forwarded-for": from, ...(body !== undefined ? { "content-type": type } : {}) }, body });

  async function owner() {
    const email = `owner.${crypto.randomUUID().slice(0, 8)}@example.com`;
    const res = await send(limited, "POST", "/api/users/", nextIp(), JSON.stringify({ firstName: "Olive", lastName: "Owner", emailAddress: email, emailAddressConfirm: email, password: PASSWORD, passwordConfirm: PASSWORD, termsAndConditions: true }), "application/json");
    expect(res.status).toBe(201);
    return email;
  }

  /** How many requests from one new address pass before the first 429 (at most `max` tried). */
  async function passedBefore429(method: string, path: string, body: () => string | undefined, type?: string, max = 200): Promise<number> {
    const from = nextIp();
    for (let i = 0; i < max; i++) {
      const res = await send(limited, method, path, from, body(), type);
      await res.arrayBuffer();
      if (res.status === 429) return i;
    }
    return max;
  }

  it("after /login answered 429, /LOGIN (and every other spelling) checks no password and signs no one in", async () => {
    const email = await owner();
    const from = nextIp();
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await send(limited, "POST", "/login", from, form({ emailAddress: `nobody${i}@example.com`, password: "wrong-pass" }))).status);
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
    for (const path of ["/LOGIN", "/login/", "/%6Cogin", "/Login.data", "/API/users/login", "/api/users/login/"]) {
      const api = path.toLowerCase().startsWith("/api");
      const res = await send(limited, "POST", path, from, api ? JSON.stringify({ emailAddress: email, password: PASSWORD }) : form({ emailAddress: email, password: PASSWORD }), api ? "application/json" : undefined);
      expect(res.status, path).toBe(429);
      expect(await res.text(), path).toContain(SERVER_MESSAGES.loginRateLimited);
      expect(res.headers.getSetCookie().join("\n"), path).not.toContain("museum_session=");
    }
    // The right password from another address still signs the owner in.
    const mine = await send(limited, "POST", "/login", nextIp(), form({ emailAddress: email, password: PASSWORD }));
    expect(mine.headers.getSetCookie().join("\n")).toContain("museum_session=");
  });

  it("meets the login limit after the same count whatever the spelling", async () => {
    const wrong = () => form({ emailAddress: `nobody.${crypto.randomUUID()}@example.com`, password: "wrong-pass" });
    for (const path of ["/login", "/LOGIN", "/%6Cogin", "/Login/.data"]) expect(await passedBefore429("POST", path, wrong), path).toBe(20);
    const json = () => JSON.stringify({ emailAddress: `nobody.${crypto.randomUUID()}@example.com`, password: "wrong-pass" });
    for (const path of ["/api/users/login", "/API/USERS/LOGIN/"]) expect(await passedBefore429("POST", path, json, "application/json"), path).toBe(20);
  }, 180_000);

  it("queues at most 5 reset emails for 20 requests to /Password/Request", async () => {
    const email = await owner();
    const resets = async () =>
      Number((await queryRows<{ n: number }>(limited.database.handle.db, sql`select count(*)::int as n from outbox where kind = 'password-reset' and payload->>'email' = ${email}`))[0].n);
    const before = await resets();
    const from = nextIp();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await send(limited, "POST", "/Password/Request", from, form({ emailAddress: email }))).status);
    expect(await resets()).toBe(before + 5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    for (const path of ["/password/request", "/PASSWORD/REQUEST.data", "/password/request/", "/%70assword/request", "/API/Users/Request-Reset"]) {
      const api = path.toLowerCase().startsWith("/api");
      const body = () => (api ? JSON.stringify({ emailAddress: "nobody@example.com" }) : form({ emailAddress: "nobody@example.com" }));
      expect(await passedBefore429("POST", path, body, api ? "application/json" : undefined), path).toBe(5);
    }
  });

  it("meets the search limit on /SEARCH after the same 120 searches as on /search", async () => {
    const none = () => undefined;
    expect(await passedBefore429("GET", "/search?q=clemente", none, undefined, 130)).toBe(120);
    expect(await passedBefore429("GET", "/SEARCH?q=clemente", none, undefined, 130)).toBe(120);
    expect(await passedBefore429("GET", "/API/Search/?q=clemente", none, undefined, 130)).toBe(120);
  }, 180_000);

  it("meets the forms limit on /Contact after the same count as on /contact", async () => {
    const body = () => form({ name: "" });
    for (const path of ["/contact", "/Contact", "/contact/", "/%63ontact", "/API/Contact"]) {
      const api = path.toLowerCase().startsWith("/api");
      expect(await passedBefore429("POST", path, api ? () => "{}" : body, api ? "application/json" : undefined), path).toBe(20);
    }
  });

  it("holds every spelling to its route's body limit (413, 415) and streamed uploads alike", async () => {
    const from = nextIp();
    const big = "a=" + "x".repeat(70 * 1024);
    const multipart = "--b\r\nContent-Disposition: form-data; name=\"List-Unsubscribe\"\r\n\r\nOne-Click\r\n--b--\r\n";
    const mp = "multipart/form-data; boundary=b";
    const probe = async (method: string, path: string, body: string, type?: string) => {
      const res = await send(relaxed, method, path, from, body, type);
      await res.arrayBuffer();
      return `${res.status} ${res.headers.get("content-type")?.split(";")[0]}`;
    };
    for (const path of ["/contact", "/CONTACT", "/contact/", "/%63ontact", "/Contact.data"]) {
      expect(await probe("POST", path, big), path).toMatch(/^413 text\/plain/);
      expect(await probe("POST", path, multipart, mp), path).toMatch(/^415 text\/plain/);
    }
    for (const path of ["/api/users/login", "/API/Users/Login", "/api/users/login/"]) {
      expect(await probe("POST", path, big, "application/json"), path).toMatch(/^413 application\/json/);
      expect(await probe("POST", path, "x", "text/plain"), path).toMatch(/^415 application\/json/);
    }
    // Multipart is the one-click unsubscribe's and the console uploads' own body: every spelling takes it.
    const unsubscribe = await probe("POST", "/email/unsubscribe", multipart, mp);
    expect(unsubscribe).not.toMatch(/^41[35]/);
    for (const path of ["/EMAIL/UNSUBSCRIBE", "/email/unsubscribe/", "/%65mail/unsubscribe"]) expect(await probe("POST", path, multipart, mp), path).toBe(unsubscribe);
    // (A small body: the console's guard answers before the upload is read, and a large unread body would reset the connection.)
    const upload = await probe("POST", "/admin/banner", multipart, mp);
    expect(upload).not.toMatch(/^41[35]/);
    for (const path of ["/ADMIN/BANNER", "/admin/banner/", "/%61dmin/banner", "/Admin/Teams/New", `/Admin/Enshrinees/${ID}/`, `/Admin/Exhibits/${ID}/Photos/Upload`]) {
      expect(await probe("POST", path, multipart, mp), path).toBe(upload);
    }
    // The upload routes removed after decision 039 take no multipart in any spelling: like any unknown page, 415.
    for (const path of ["/admin/media/upload", "/ADMIN/MEDIA/UPLOAD", "/%61dmin/media/upload/", `/admin/enshrinees/${ID}/portrait`, `/Admin/Enshrinees/${ID}/Portrait/`]) {
      expect(await probe("POST", path, multipart, mp), path).toMatch(/^415 text\/plain/);
    }
  });

  it("serves every spelling of a cached page the one page stored under its route's address", async () => {
    const get = (path: string) => send(relaxed, "GET", path, nextIp());
    const cache = async (path: string) => {
      const res = await get(path);
      await res.arrayBuffer();
      return `${res.status} ${res.headers.get("x-cache")}`;
    };
    // A variant asked first renders the page at the route's address and stores it there.
    expect(await cache("/PrivacyPolicy")).toBe("200 MISS");
    expect(await cache("/privacypolicy")).toBe("200 HIT");
    await cache("/about");
    expect(await cache("/about")).toBe("200 HIT");
    for (const path of ["/ABOUT", "/about/", "/%61bout", "/About/"]) expect(await cache(path), path).toBe("200 HIT");
    const [team] = (await (await get("/api/teams/")).json()) as TeamView[];
    await cache(`/teams/${team._id}`);
    expect(await cache(`/teams/${team._id}`)).toBe("200 HIT");
    for (const path of [`/TEAMS/${team._id}`, `/teams/${team._id}/`, `/%74eams/${team._id}`]) expect(await cache(path), path).toBe("200 HIT");
    // A differently written id renders the same records, but the page names its own address: not stored.
    expect(await cache(`/teams/${team._id.toUpperCase()}`)).toBe("200 BYPASS");
    expect(await cache(`/teams/${team._id.toUpperCase()}`)).toBe("200 BYPASS");
    // The page is the same page: the HTML a variant gets is the canonical address's.
    expect(await (await get("/ABOUT")).text()).toBe(await (await get("/about")).text());
  });

  it("gives every route of the manifest, in every spelling, its canonical spelling's status, limit, cache and opener headers", async () => {
    const from = nextIp();
    const look = async (method: string, path: string) => {
      const res = await send(relaxed, method, path, from, method === "POST" ? "x=1" : undefined);
      await res.arrayBuffer();
      return {
        status: res.status,
        limit: res.headers.get("ratelimit-policy")?.replace(/; pk=.*$/, "") ?? null,
        cached: res.headers.has("x-cache"),
        coop: res.headers.get("cross-origin-opener-policy"),
      };
    };
    const routes = routeAddresses(build);
    expect(routes.length).toBeGreaterThan(60);
    const differences: string[] = [];
    for (const { id, path } of routes) {
      for (const method of ["GET", "POST"]) {
        const canonical = await look(method, path);
        for (const variant of spellings(path)) {
          const other = await look(method, variant);
          if (JSON.stringify(other) !== JSON.stringify(canonical)) differences.push(`${id} ${method} ${variant}: ${JSON.stringify(other)} vs ${path}: ${JSON.stringify(canonical)}`);
        }
      }
    }
    expect(differences).toEqual([]);
    // And the policies themselves, as the canonical spellings show them.
    expect((await look("GET", "/login")).coop).toBe("same-origin");
    expect((await look("GET", "/admin")).coop).toBe("same-origin");
    expect((await look("GET", "/about")).coop).toBeNull();
    expect((await look("POST", "/login")).limit).toMatch(/q=1000; w=900/);
    expect((await look("GET", "/search")).limit).toMatch(/q=6000; w=60/);
    expect((await look("GET", "/about")).cached).toBe(true);
  }, 240_000);
});
