/**
 * The platform through HTTP on both databases: layout variants decided by the server, 404,
 * the error fallback, health check, security headers, compression and asset caching.
 */
import { get as httpGet, type IncomingHttpHeaders } from "node:http";
import { brotliCompressSync, brotliDecompressSync, constants as zlibConstants, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "~/shared/messages";
import { availableDrivers } from "../helpers/databases";
import { createSignedInAccount, dateFromToday } from "../helpers/fixtures";
import { capturedLogger, startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();

/** Text of the <nav aria-label="..."> element in `html`. */
function navHtml(html: string, label: string): string {
  const start = html.indexOf(`aria-label="${label}"`);
  expect(start, `nav ${label}`).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf("</nav>", start));
}

describe.each(drivers)("platform on %s", (kind) => {
  let server: TestServer;
  const { logger, lines: logLines } = capturedLogger();

  beforeAll(async () => {
    server = await startTestServer(kind, { ENABLE_ERROR_PROBE: "true", TICKET_DAYS: "90" }, { logger });
  });
  afterAll(() => server?.close());

  it("shows a visitor the Admission and Login links and no greeting", async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    const top = navHtml(html, "Main");
    for (const label of ["Shop", "About", "Admission", "Contact", "Login"]) expect(top).toContain(`>${label}<`);
    const bottom = navHtml(html, "Bottom menu");
    for (const label of ["Home", "Shop", "About", "Admission", "Contact", "Login"]) expect(bottom).toContain(`>${label}<`);
    expect(bottom).not.toContain("Logout");
    expect(html).not.toContain("Hello,");
    expect(html).toContain('href="/subscribe"');
  });

  it("shows a member the greeting, no Admission or Login, and Logout at the bottom", async () => {
    const member = await createSignedInAccount(server.services, { firstName: "Jane", validThrough: dateFromToday(30) });
    const html = await (await fetch(`${server.url}/`, { headers: { cookie: member.cookie } })).text();
    const top = navHtml(html, "Main");
    expect(top).toContain("Hello, Jane");
    expect(top).not.toContain(">Admission<");
    expect(top).not.toContain(">Login<");
    const bottom = navHtml(html, "Bottom menu");
    for (const label of ["Home", "Shop", "About", "Contact", "Logout"]) expect(bottom).toContain(`>${label}<`);
    expect(bottom).not.toContain(">Login<");
    expect(html).toContain("JANE");
    expect(html).not.toContain('href="/subscribe"');
  });

  it("treats an account whose ticket expired yesterday as a visitor", async () => {
    const expired = await createSignedInAccount(server.services, { firstName: "Sam", validThrough: dateFromToday(-2) });
    const html = await (await fetch(`${server.url}/`, { headers: { cookie: expired.cookie } })).text();
    expect(navHtml(html, "Main")).toContain(">Admission<");
    expect(html).not.toContain("Hello, Sam");
  });

  it("opens the Shop in a new tab with rel=noopener", async () => {
    const html = await (await fetch(`${server.url}/about`)).text();
    expect(html).toMatch(/href="https:\/\/shop\.[^"]+" target="_blank" rel="noopener noreferrer"/);
  });

  it("answers an unknown address with the 404 page and status 404", async () => {
    const res = await fetch(`${server.url}/no/such/page`);
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain(MESSAGES.notFoundCode);
    expect(html).toContain(MESSAGES.notFoundHeadline);
  });

  it("shows the error fallback with status 500, logs the error with the request id, never the stack", async () => {
    const res = await fetch(`${server.url}/__error-probe`);
    expect(res.status).toBe(500);
    const html = await res.text();
    expect(html).toContain(MESSAGES.errorHeadline);
    expect(html).toContain('href="/contact"');
    expect(html).not.toContain("deliberate failure");
    expect(html).not.toMatch(/at .*\.js:\d+/);
    const requestId = res.headers.get("x-request-id");
    expect(requestId).toBeTruthy();
    const logged = logLines.map((l) => JSON.parse(l)).find((l) => l.msg === "route error");
    expect(logged?.requestId).toBe(requestId);
    expect(logged?.err?.message).toContain("deliberate failure");
  });

  it("answers /healthz (alive) and /readyz (database reachable, migrations applied)", async () => {
    const live = await fetch(`${server.url}/healthz`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: "ok" });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready", database: kind });
  });

  it("sends security headers and a nonce-based Content-Security-Policy on pages rendered per request", async () => {
    // Pages served to visitors from the anonymous page cache use script hashes instead (page-cache.test.ts).
    const res = await fetch(`${server.url}/contact`);
    const csp = res.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-eval");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-powered-by")).toBeNull();
    const html = await res.text();
    // Executable scripts carry the nonce; JSON-LD data blocks are never executed.
    const scripts = (html.match(/<script[^>]*>/g) ?? []).filter((tag) => !tag.includes("application/ld+json"));
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it("isolates from other sites' windows the pages where a password, a card, a token or an account is typed or shown, not the public collection", async () => {
    // Decision 016, addendum 3: Cross-Origin-Opener-Policy costs a new renderer process on the
    // way in, so it goes where another site holding the window could learn or steal something.
    const isolated = ["/login", "/admission", "/admission/payment", "/password/request", "/password/reset?token=x", "/account", "/account/email", "/admin", "/gift/redeem/abc", "/gift/123/pay", "/email/unsubscribe?token=x"];
    const open = ["/", "/about", "/contact", "/enshrinees", "/favoritestories", "/search?q=steelers", "/teams/1", "/admissions", "/accounting", "/gift"];
    for (const path of isolated) {
      const res = await fetch(`${server.url}${path}`, { redirect: "manual" });
      expect(res.headers.get("cross-origin-opener-policy"), path).toBe("same-origin");
    }
    for (const path of open) {
      const res = await fetch(`${server.url}${path}`, { redirect: "manual" });
      expect(res.headers.get("cross-origin-opener-policy"), path).toBeNull();
    }
  });

  it("compresses pages and caches hashed assets for a year", async () => {
    // /subscribe loads its scripts at once (its timers need them); the collection pages wait for
    // the person's first intent (decision 016, addendum), so their HTML names no script file.
    const res = await fetch(`${server.url}/subscribe`, { headers: { "accept-encoding": "br, gzip" } });
    expect(res.headers.get("content-encoding")).toMatch(/br|gzip/);
    const html = await res.text();
    // The stylesheet is inline (decision 016); the scripts are hashed assets.
    const asset = /(?:href|src)="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeTruthy();
    const script = await fetch(`${server.url}${asset}`);
    expect(script.status).toBe(200);
    expect(script.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    // Sent as the build compressed it, at brotli's hardest (smaller than on-the-fly compression),
    // or gzip, or plain, as the browser asks; each decodes to the same script.
    const plain = Buffer.from(await (await rawGet(asset!, "identity")).body);
    const br = await rawGet(asset!, "gzip, deflate, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(brotliDecompressSync(br.body).equals(plain)).toBe(true);
    expect(br.body.length).toBe(brotliCompressSync(plain, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: plain.length } }).length);
    const gz = await rawGet(asset!, "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).equals(plain)).toBe(true);
  });

  it("sends brotli to Chromium's Accept-Encoding, which names gzip first, on a page's first render and after", async () => {
    // Chromium asks with "gzip, deflate, br, zstd": every coding at q=1, brotli preferred on the tie.
    // The home page's brotli copy fits a new connection's first round trip on a slow network;
    // its gzip copy does not (decision 016, addendum 3).
    const chromium = "gzip, deflate, br, zstd";
    for (const pathname of ["/privacypolicy", "/privacypolicy", "/"]) {
      const res = await rawGet(pathname, chromium);
      expect(res.headers["content-encoding"], pathname).toBe("br");
      expect(brotliDecompressSync(res.body).toString("utf8"), pathname).toContain("</html>");
    }
    const html = brotliDecompressSync((await rawGet("/subscribe", chromium)).body).toString("utf8");
    const asset = /(?:href|src)="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect((await rawGet(asset!, chromium)).headers["content-encoding"]).toBe("br");
  });

  /** A GET whose body is left as sent (fetch would decode it). */
  function rawGet(pathname: string, acceptEncoding: string): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolve, reject) => {
      httpGet(`${server.url}${pathname}`, { headers: { "accept-encoding": acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      }).on("error", reject);
    });
  }

  it("states the ticket period from config in the terms", async () => {
    const html = await (await fetch(`${server.url}/termsandconditions`)).text();
    expect(html).toContain("Last modified: June 15, 2023");
    expect(html).toMatch(/90(<!-- -->)? consecutive days/);
    expect(html).not.toMatch(/365/);
  });
});
