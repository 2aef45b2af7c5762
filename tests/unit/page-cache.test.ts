/**
 * The page cache in front of a stand-in renderer: who is served from it, what is
 * stored, how long, and the CSP hashes of a stored page's inline scripts.
 */
import { createHash } from "node:crypto";
import type { AddressInfo } from "node:net";
import express from "express";
import type { AppLoadContext } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { createPageCache, inlineScriptHashes, isStorableAddress, withScriptHashes } from "../../server/pages/page-cache";
import { routeResolver } from "../helpers/test-server";

const routes = await routeResolver();
/** The address the host stores a page under (its route's policy), as createApp gives the cache. */
const cacheAddress = (req: { method?: string; url?: string }) => routes.resolve(req.method ?? "GET", (req.url ?? "/").split("?")[0]).cacheAddress;

const sha = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
const CSP = "default-src 'self';script-src 'self' 'nonce-abc123==';object-src 'none'";

interface Stand {
  url: string;
  renders: string[];
  clock: { ms: number };
  cache: ReturnType<typeof createPageCache>;
  close(): Promise<void>;
}

const open: Stand[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** An Express app with the cache, whose "renderer" answers per path as the test says. */
async function stand(answer: (path: string, context: AppLoadContext, request: Request) => Response | Promise<Response>): Promise<Stand> {
  const renders: string[] = [];
  const clock = { ms: 1_000_000 };
  const cache = createPageCache({
    cacheAddress,
    render: async (request, context) => {
      renders.push(new URL(request.url).pathname);
      return answer(new URL(request.url).pathname, context, request);
    },
    loadContext: () => ({ renderState: { loadFailed: false } }) as AppLoadContext,
    origin: "https://museum.example",
    ttlSeconds: 30,
    now: () => clock.ms,
  });
  const app = express();
  app.use((_req, res, next) => {
    res.setHeader("Content-Security-Policy", CSP);
    next();
  });
  app.use(cache.middleware);
  app.use((req, res) => {
    res.setHeader("X-Handled-By", "normal handler");
    res.send(`fresh render of ${req.path}`);
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((r) => server.once("listening", () => r()));
  const s: Stand = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    renders,
    clock,
    cache,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  open.push(s);
  return s;
}

const page = (body: string, init: ResponseInit = {}) =>
  new Response(body, { status: 200, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private, no-cache" }, ...init });

describe("which requests the page cache serves", () => {
  it("takes the collection, About and legal pages, not forms, accounts or the API", () => {
    for (const p of ["/", "/teams/t1", "/teams/t1/c1", "/teams/t1/some-title/e1", "/enshrinees", "/enshrinees/roberto-clemente/x1",
      "/roberto-clemente/x1/exhibit/e1", "/favoritestories", "/favoritestories/exhibit/e1", "/about", "/termsandconditions",
      "/privacypolicy", "/sitemap.xml", "/robots.txt"]) expect(cacheAddress({ url: p }), p).toBe(p);
    for (const p of ["/contact", "/login", "/logout", "/subscribe", "/admission", "/admission/payment", "/password/request",
      "/password/reset", "/api/teams/", "/api/x/exhibit/y", "/images/view/a.svg", "/assets/a/b/exhibit/c", "/__error-probe"]) {
      expect(cacheAddress({ url: p }), p).toBeNull();
    }
  });

  it("keeps every spelling of a cached route under the route's own address (decision 022)", () => {
    for (const p of ["/ABOUT", "/about/", "/%61bout", "/About.data", "/x/../about"]) expect(cacheAddress({ url: p }), p).toBe("/about");
    expect(cacheAddress({ url: "/_root.data" })).toBe("/");
    expect(cacheAddress({ url: "/TEAMS/t1/" })).toBe("/teams/t1");
    for (const p of ["/LOGIN", "/Contact/", "/API/teams"]) expect(cacheAddress({ url: p }), p).toBeNull();
    expect(cacheAddress({ method: "POST", url: "/about" })).toBeNull();
  });

  it("sends anyone with a session cookie or a Bearer token to the normal handler", async () => {
    const s = await stand(() => page("<p>visitor view</p>"));
    const cookie = await fetch(`${s.url}/about`, { headers: { cookie: "museum_session=abcdefghijklmnopqrstuvwxyz012345" } });
    expect(await cookie.text()).toBe("fresh render of /about");
    const bearer = await fetch(`${s.url}/about`, { headers: { authorization: "Bearer abcdefghijklmnopqrstuvwxyz012345" } });
    expect(await bearer.text()).toBe("fresh render of /about");
    const post = await fetch(`${s.url}/about`, { method: "POST" });
    expect(await post.text()).toBe("fresh render of /about");
    expect(s.renders).toEqual([]);
  });

  it("renders a visitor's page without their cookies or credentials", async () => {
    let seen: Headers | undefined;
    const s = await stand((_p, _c, request) => {
      seen = request.headers;
      return page("<p>hi</p>");
    });
    await fetch(`${s.url}/about`, { headers: { cookie: "theme=dark", "accept-language": "en-US" } });
    expect(seen?.get("cookie")).toBeNull();
    expect(seen?.get("accept-language")).toBe("en-US");
  });
});

describe("what the page cache stores", () => {
  it("keeps pages apart by path", async () => {
    const s = await stand((p) => page(`<h1>${p}</h1>`));
    await fetch(`${s.url}/about`);
    await fetch(`${s.url}/privacypolicy`);
    expect(await (await fetch(`${s.url}/about`)).text()).toBe("<h1>/about</h1>");
    expect(await (await fetch(`${s.url}/privacypolicy`)).text()).toBe("<h1>/privacypolicy</h1>");
    expect(s.renders).toEqual(["/about", "/privacypolicy"]);
  });

  it("renders an address with a query string for that request alone, so it cannot fill the cache", async () => {
    const s = await stand((p) => page(`<h1>${p}</h1>`));
    for (const q of ["?utm_source=newsletter", "?utm_source=newsletter", "?bust=1", "?bust=2"]) {
      const res = await fetch(`${s.url}/about${q}`);
      expect(res.headers.get("x-cache"), q).toBe("BYPASS");
    }
    expect(s.renders).toHaveLength(4);
    // Client-side navigation's loader calls name their routes in `_routes`: those are kept.
    await fetch(`${s.url}/teams/t1.data?_routes=root,routes/team`);
    const again = await fetch(`${s.url}/teams/t1.data?_routes=root,routes/team`);
    expect(again.headers.get("x-cache")).toBe("HIT");
    expect(isStorableAddress("/teams/t1.data", new URLSearchParams("_routes=root&x=1"))).toBe(false);
    expect(isStorableAddress("/teams/t1", new URLSearchParams("_routes=root"))).toBe(false);
    // Only a short list of well-formed route ids: anything else would mint new cache keys at will.
    expect(isStorableAddress("/teams/t1.data", new URLSearchParams("_routes=root,routes/team"))).toBe(true);
    expect(isStorableAddress("/teams/t1.data", new URLSearchParams("_routes=root,routes/team,routes/home"))).toBe(false);
    expect(isStorableAddress("/teams/t1.data", new URLSearchParams(`_routes=${"a".repeat(30)}`))).toBe(false);
  });

  it("renders once for visitors who ask at the same time", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const s = await stand(async () => {
      await gate;
      return page("<h1>busy page</h1>");
    });
    const asks = Array.from({ length: 5 }, () => fetch(`${s.url}/`));
    await new Promise((r) => setTimeout(r, 100));
    release();
    const answers = await Promise.all(asks);
    expect(await Promise.all(answers.map((a) => a.text()))).toEqual(Array(5).fill("<h1>busy page</h1>"));
    expect(s.renders).toHaveLength(1);
  });

  it("does not store errors, redirects, answers that set a cookie or pages missing data", async () => {
    const s = await stand((p, context) => {
      if (p === "/teams/missing") return page("<h1>Not found</h1>", { status: 404 });
      if (p === "/teams/moved") return new Response(null, { status: 302, headers: { Location: "/" } });
      if (p === "/teams/cookie") return page("<h1>c</h1>", { headers: { "Set-Cookie": "a=b", "Content-Type": "text/html" } });
      context.renderState.loadFailed = true;
      return page("<h1>team without its categories</h1>");
    });
    for (const p of ["/teams/missing", "/teams/moved", "/teams/cookie", "/teams/partial"]) {
      const first = await fetch(`${s.url}${p}`, { redirect: "manual" });
      const again = await fetch(`${s.url}${p}`, { redirect: "manual" });
      expect(first.headers.get("x-cache"), p).toBe("BYPASS");
      expect(again.headers.get("x-cache"), p).toBe("BYPASS");
    }
    const missing = await fetch(`${s.url}/teams/missing`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe("<h1>Not found</h1>");
    const moved = await fetch(`${s.url}/teams/moved`, { redirect: "manual" });
    expect(moved.status).toBe(302);
    expect(moved.headers.get("location")).toBe("/");
    expect(s.renders).toHaveLength(10);
  });
});

/** A render the test holds back until it calls `release` (a slow page). */
function holdBack() {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  return { gate, release };
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A stand whose pages name the edition they were rendered from; `hold()` holds back the next renders until its release. */
async function editionStand() {
  const edition: { version: number; gate?: Promise<void> } = { version: 1 };
  const s = await stand(async (p) => {
    const v = edition.version;
    await edition.gate;
    return page(`<h1>${p} version ${v}</h1>`);
  });
  const hold = () => {
    const { gate, release } = holdBack();
    edition.gate = gate;
    return release;
  };
  return { s, edition, hold };
}

describe("how stored pages are renewed (decision 038)", () => {
  it("renders a stored page again in the background after a change: the next reader is served the new page, no render on their request", async () => {
    const { s, edition } = await editionStand();
    expect((await fetch(`${s.url}/about`)).headers.get("x-cache")).toBe("MISS");
    // Asked for once with a query string: rendered for that request, not stored, not renewed.
    await fetch(`${s.url}/privacypolicy?utm_source=x`);
    expect(s.renders).toEqual(["/about", "/privacypolicy"]);
    edition.version = 2;
    s.cache.changed();
    await s.cache.settled();
    expect(s.renders).toEqual(["/about", "/privacypolicy", "/about"]);
    const next = await fetch(`${s.url}/about`);
    expect(next.headers.get("x-cache")).toBe("HIT");
    expect(await next.text()).toBe("<h1>/about version 2</h1>");
    expect(s.renders).toHaveLength(3);
  });

  it("makes a reader who comes while the new page renders wait for that one render, never the page from before the change", async () => {
    const { s, edition, hold } = await editionStand();
    await fetch(`${s.url}/about`);
    const release = hold();
    edition.version = 2;
    s.cache.changed();
    const asks = [fetch(`${s.url}/about`), fetch(`${s.url}/about`), fetch(`${s.url}/about`, { method: "HEAD" })];
    await wait(100);
    release();
    const answers = await Promise.all(asks);
    expect(await Promise.all(answers.map((a) => a.text()))).toEqual(["<h1>/about version 2</h1>", "<h1>/about version 2</h1>", ""]);
    expect(answers.map((a) => a.headers.get("x-cache"))).toEqual(["HIT", "HIT", "HIT"]);
    expect(s.renders).toEqual(["/about", "/about"]);
  });

  it("renders one stored page at a time, most recently used first; a reader of a page still queued starts its render, and it is not rendered twice", async () => {
    let version = 1;
    let hold: ReturnType<typeof holdBack> | null = null;
    const s = await stand(async (p) => {
      const v = version;
      if (p !== "/privacypolicy") await hold?.gate;
      return page(`<h1>${p} version ${v}</h1>`);
    });
    for (const p of ["/privacypolicy", "/about", "/termsandconditions"]) await fetch(`${s.url}${p}`);
    hold = holdBack();
    version = 2;
    s.cache.changed();
    expect(s.renders.slice(3)).toEqual(["/termsandconditions"]);
    const waiting = await fetch(`${s.url}/privacypolicy`);
    expect(await waiting.text()).toBe("<h1>/privacypolicy version 2</h1>");
    expect(waiting.headers.get("x-cache")).toBe("MISS");
    hold.release();
    await s.cache.settled();
    expect(s.renders.slice(3)).toEqual(["/termsandconditions", "/privacypolicy", "/about"]);
    for (const p of ["/about", "/termsandconditions", "/privacypolicy"]) {
      const res = await fetch(`${s.url}${p}`);
      expect(res.headers.get("x-cache"), p).toBe("HIT");
      expect(await res.text()).toBe(`<h1>${p} version 2</h1>`);
    }
    expect(s.renders).toHaveLength(6);
  });

  it("drops a stored page whose new render is not one to keep, so no reader gets the page from before the change", async () => {
    let gone = false;
    const s = await stand((p) => (gone ? page("<h1>Not found</h1>", { status: 404 }) : page(`<h1>${p}</h1>`)));
    await fetch(`${s.url}/teams/t1`);
    gone = true;
    s.cache.changed();
    await s.cache.settled();
    expect(s.renders).toHaveLength(2);
    // Dropped, not kept aside: the next change does not render it again.
    s.cache.changed();
    await s.cache.settled();
    expect(s.renders).toHaveLength(2);
    const after = await fetch(`${s.url}/teams/t1`);
    expect(after.status).toBe(404);
    expect(after.headers.get("x-cache")).toBe("BYPASS");
  });

  it("never stores a page whose render began before a change", async () => {
    let version = 1;
    const hold = holdBack();
    const s = await stand(async (p) => {
      const v = version;
      if (v === 1) await hold.gate;
      return page(`<h1>${p} version ${v}</h1>`);
    });
    const early = fetch(`${s.url}/about`);
    await wait(50);
    version = 2;
    s.cache.changed();
    hold.release();
    expect(await (await early).text()).toBe("<h1>/about version 1</h1>");
    const next = await fetch(`${s.url}/about`);
    expect(next.headers.get("x-cache")).toBe("MISS");
    expect(await next.text()).toBe("<h1>/about version 2</h1>");
  });

  it("serves a page past the time limit at once and renders it again behind it", async () => {
    const { s, edition, hold } = await editionStand();
    expect((await fetch(`${s.url}/about`)).headers.get("x-cache")).toBe("MISS");
    s.clock.ms += 29_000;
    expect((await fetch(`${s.url}/about`)).headers.get("x-cache")).toBe("HIT");
    expect(s.renders).toHaveLength(1);
    s.clock.ms += 2_000;
    edition.version = 2;
    const release = hold();
    // The new render is held back: the reader gets the stored page without waiting for it.
    const old = await fetch(`${s.url}/about`, { signal: AbortSignal.timeout(2_000) });
    expect(old.headers.get("x-cache")).toBe("HIT");
    expect(await old.text()).toBe("<h1>/about version 1</h1>");
    expect(s.renders).toHaveLength(2);
    expect(await (await fetch(`${s.url}/about`)).text()).toBe("<h1>/about version 1</h1>");
    expect(s.renders).toHaveLength(2);
    release();
    await s.cache.settled();
    const renewed = await fetch(`${s.url}/about`);
    expect(renewed.headers.get("x-cache")).toBe("HIT");
    expect(await renewed.text()).toBe("<h1>/about version 2</h1>");
    expect(s.renders).toHaveLength(2);
  });
});

describe("pages rendered ahead at start-up", () => {
  it("renders the given visitors' pages one after another, so the first reader of each is served without a render", async () => {
    const s = await stand((path) => page(`<h1>${path}</h1>`));
    await s.cache.prime(["/", "/about", "/nope"]);
    expect(s.renders).toEqual(["/", "/about", "/nope"]);
    const home = await fetch(`${s.url}/`);
    expect(home.headers.get("x-cache")).toBe("HIT");
    expect(await home.text()).toBe("<h1>/</h1>");
    expect((await fetch(`${s.url}/about`)).headers.get("x-cache")).toBe("HIT");
    expect(s.renders).toHaveLength(3);
    // Already stored: not rendered again.
    await s.cache.prime(["/", "/about"]);
    expect(s.renders).toHaveLength(3);
  });

  it("stores nothing for an address that is not a page to keep", async () => {
    const s = await stand((path) => (path === "/about" ? page("gone", { status: 404 }) : page(`<h1>${path}</h1>`)));
    await s.cache.prime(["/about"]);
    const about = await fetch(`${s.url}/about`);
    expect(about.headers.get("x-cache")).not.toBe("HIT");
    expect(s.renders).toEqual(["/about", "/about"]);
  });
});

describe("how a stored page is sent", () => {
  const html = `<html><head><script type="application/ld+json">{"@type":"Museum"}</script></head><body>${"<p>exhibit text</p>".repeat(200)}<script src="/assets/a.js"></script><script type="module">import "/assets/entry.js";</script><script>window.__ctx = {"a":1};</script></body></html>`;

  it("allows its inline scripts by hash instead of the request's nonce", async () => {
    const s = await stand(() => page(html));
    for (const ask of [1, 2]) {
      const res = await fetch(`${s.url}/`);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp, `request ${ask}`).toBe(
        `default-src 'self';script-src 'self' ${sha('import "/assets/entry.js";')} ${sha('window.__ctx = {"a":1};')};object-src 'none'`,
      );
    }
  });

  it("sends brotli, gzip or plain bytes as the browser accepts, with an ETag that answers 304", async () => {
    const s = await stand(() => page(html));
    const br = await fetch(`${s.url}/about`, { headers: { "accept-encoding": "br" } });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(await br.text()).toBe(html);
    const gz = await fetch(`${s.url}/about`, { headers: { "accept-encoding": "gzip" } });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(await gz.text()).toBe(html);
    const plain = await fetch(`${s.url}/about`, { headers: { "accept-encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe(html);
    expect(plain.headers.get("vary")?.split(", ").sort()).toEqual(["Accept-Encoding", "Authorization", "Cookie"]);
    expect(plain.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=1, stale-if-error=86400");
    const etag = plain.headers.get("etag")!;
    const again = await fetch(`${s.url}/about`, { headers: { "if-none-match": etag, "cache-control": "max-age=0" } });
    expect(again.status).toBe(304);
    expect(s.renders).toHaveLength(1);
  });

  it("answers HEAD with the headers only", async () => {
    const s = await stand(() => page(html));
    const res = await fetch(`${s.url}/about`, { method: "HEAD", headers: { "accept-encoding": "identity" } });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get("content-length"))).toBe(Buffer.byteLength(html));
    expect(await res.text()).toBe("");
  });
});

describe("script hashes", () => {
  it("hashes each executable inline script once, exactly as written", () => {
    const doc = `<script>a()</script><script nonce="x">a()</script><script type="module">b()</script><script src="/c.js"></script><script type="application/ld+json">{}</script>`;
    expect(inlineScriptHashes(doc)).toEqual([sha("a()"), sha("b()")]);
  });

  it("puts the hashes where the nonce was and touches no other directive", () => {
    expect(withScriptHashes(CSP, ["'sha256-A'", "'sha256-B'"])).toBe("default-src 'self';script-src 'self' 'sha256-A' 'sha256-B';object-src 'none'");
  });
});
