/**
 * What the host does before a request reaches a page or an API handler, through HTTP on both
 * databases: body limits (413 before the body is read), methods (405) and content types (415),
 * one rate limiter for pages and API alike, the client IP behind a proxy (TRUST_PROXY), answers
 * that depend on the session marked private, secrets kept out of the request log, the
 * Permissions-Policy header, database time limits (503 and the error page), and the test-mode
 * notice.
 */
import http from "node:http";
import { sql } from "drizzle-orm";
import pg from "pg";
import { queryRows } from "../../server/db/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOST_MESSAGES, SERVER_MESSAGES } from "~/shared/messages";
import { availableDrivers } from "../helpers/databases";
import { createSignedInAccount, dateFromToday } from "../helpers/fixtures";
import { capturedLogger, startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();

/** Sends a request with a declared length but only a few bytes of body; resolves with the status and text. */
function postDeclaring(url: string, declaredBytes: number, contentType = "application/x-www-form-urlencoded") {
  return new Promise<{ status: number; text: string; ms: number }>((resolve, reject) => {
    const started = Date.now();
    const req = http.request(url, { method: "POST", headers: { "content-type": contentType, "content-length": String(declaredBytes) } }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text, ms: Date.now() - started }));
    });
    req.on("error", reject);
    req.write("firstName=a&");
    // The rest of the body never comes: the answer must not wait for it.
  });
}

/** Streams `totalBytes` of form body in chunks (no Content-Length), as a client that lies about nothing but sends too much. */
function postChunked(url: string, totalBytes: number) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", "transfer-encoding": "chunked" } }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", (e) => (/ECONNRESET|EPIPE/.test(String(e)) ? undefined : reject(e)));
    const chunk = Buffer.alloc(16 * 1024, "a");
    let sent = 0;
    const pump = () => {
      while (sent < totalBytes) {
        sent += chunk.length;
        if (!req.write(chunk)) return req.once("drain", pump);
      }
      req.end();
    };
    pump();
  });
}

describe.each(drivers)("host hardening on %s", (kind) => {
  let server: TestServer;
  const { logger, lines: logLines } = capturedLogger();

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { logger, seed: false });
  });
  afterAll(() => server?.close());

  it("answers 413 to a page post that declares a huge body, at once and before reading it", async () => {
    const r = await postDeclaring(`${server.url}/contact`, 450 * 1024 * 1024);
    expect(r.status).toBe(413);
    expect(r.text).toBe(HOST_MESSAGES.bodyTooLarge("64 KB"));
    expect(r.ms).toBeLessThan(2000);
  });

  it("answers 413 to a streamed page post once it passes the limit", async () => {
    const r = await postChunked(`${server.url}/contact`, 2 * 1024 * 1024);
    expect(r.status).toBe(413);
    expect(r.text).toContain("64 KB");
  });

  it("answers 413 with JSON to an API body over the limit", async () => {
    const res = await fetch(`${server.url}/api/contact`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: "x".repeat(200 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).message).toBe(HOST_MESSAGES.bodyTooLarge("64 KB"));
  });

  it("refuses a text/plain page post with 415 and other methods on pages with 405", async () => {
    const plain = await fetch(`${server.url}/contact`, { method: "POST", headers: { "content-type": "text/plain" }, body: "hello" });
    expect(plain.status).toBe(415);
    expect(await plain.text()).toBe(HOST_MESSAGES.unsupportedType("application/x-www-form-urlencoded"));
    for (const method of ["PUT", "DELETE", "PATCH"]) {
      const res = await fetch(`${server.url}/contact`, { method, headers: { "content-type": "application/x-www-form-urlencoded" }, body: "a=b" });
      expect(res.status, method).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, HEAD, POST");
    }
  });

  it("answers TRACE on a page with 405", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      http.request(`${server.url}/about`, { method: "TRACE" }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }).on("error", reject).end();
    });
    expect(status).toBe(405);
  });

  it("marks every page answer that depends on the session private, for documents and .data calls", async () => {
    const member = await createSignedInAccount(server.services, { validThrough: dateFromToday(10) });
    for (const path of ["/login", "/admission", "/contact.data", "/login.data", "/"]) {
      const res = await fetch(`${server.url}${path}`, { headers: { cookie: member.cookie }, redirect: "manual" });
      expect(res.headers.get("cache-control"), path).toBe("private, no-store");
      expect(res.headers.get("vary") ?? "", path).toMatch(/Cookie/i);
    }
  });

  it("sends a Permissions-Policy that turns off unused features", async () => {
    const res = await fetch(`${server.url}/about`);
    const policy = res.headers.get("permissions-policy") ?? "";
    for (const feature of ["camera=()", "microphone=()", "geolocation=()", "payment="]) expect(policy).toContain(feature);
  });

  it("keeps a reset token out of the request log", async () => {
    logLines.length = 0;
    await (await fetch(`${server.url}/password/reset?token=secret-token-value-123`)).text();
    // The line is written when the response finishes, which may be just after the client has it.
    for (let i = 0; i < 50 && !logLines.join("").includes("/password/reset"); i++) await new Promise((r) => setTimeout(r, 20));
    const log = logLines.join("");
    expect(log).toContain("/password/reset?token=[redacted]");
    expect(log).not.toContain("secret-token-value-123");
  });

  it("shows the test-mode notice on every page while test payments run", async () => {
    for (const path of ["/", "/about", "/login"]) {
      const html = await (await fetch(`${server.url}${path}`)).text();
      expect(html, path).toContain("Test mode: no card is charged");
    }
  });
});

describe.each(drivers)("rate limits and client addresses on %s", (kind) => {
  it("limits the sign-up page's form like the API, per client address, and TRUST_PROXY decides the address", async () => {
    const direct = await startTestServer(kind, { RATE_LIMIT_RELAXED: "false" }, { seed: false });
    const proxied = await startTestServer(kind, { RATE_LIMIT_RELAXED: "false", TRUST_PROXY: "1" }, { seed: false });
    try {
      const ask = (s: TestServer, forwardedFor: string) =>
        fetch(`${s.url}/password/request.data`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": forwardedFor },
          body: "emailAddress=nobody%40example.com",
        });
      // Without a trusted proxy X-Forwarded-For is ignored: every request is the same client.
      const directStatuses: number[] = [];
      for (let i = 0; i < 6; i++) directStatuses.push((await ask(direct, `203.0.113.${i}`)).status);
      expect(directStatuses.slice(0, 5).every((s) => s === 200)).toBe(true);
      expect(directStatuses[5]).toBe(429);
      // Behind one trusted proxy, the address it reports is the client's: six clients, no limit met.
      const proxiedStatuses: number[] = [];
      for (let i = 0; i < 6; i++) proxiedStatuses.push((await ask(proxied, `203.0.113.${i}`)).status);
      expect(proxiedStatuses.every((s) => s === 200)).toBe(true);
    } finally {
      await direct.close();
      await proxied.close();
    }
  });

  it(kind === "postgres" ? "keeps the counters in the database, where every instance counts the same hits" : "keeps the counters in the process's memory (PGlite is one process), writing no row per request", async () => {
    const s = await startTestServer(kind, { RATE_LIMIT_RELAXED: "false" }, { seed: false });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await fetch(`${s.url}/api/users/request-reset`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ emailAddress: "x@example.com" }) });
        statuses.push(res.status);
      }
      expect(statuses[5]).toBe(429);
      const rows = await queryRows<{ key: string }>(s.database.handle.db, sql`select key from rate_limits where key like 'reset-request:%'`);
      expect(rows.length).toBe(kind === "postgres" ? 1 : 0);
    } finally {
      await s.close();
    }
  });

  it("answers a page action over its limit with the page's own message, and the API with 429 JSON", async () => {
    const s = await startTestServer(kind, { RATE_LIMIT_RELAXED: "false" }, { seed: false });
    try {
      const body = new URLSearchParams({ firstName: "A", lastName: "B", emailAddress: "x@example.com" }).toString();
      let last: Response | undefined;
      for (let i = 0; i < 61; i++) {
        last = await fetch(`${s.url}/admission`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
      }
      expect(last!.status).toBe(429);
      expect(await last!.text()).toContain(SERVER_MESSAGES.tooManyRequests);
      let api: Response | undefined;
      for (let i = 0; i < 6; i++) {
        api = await fetch(`${s.url}/api/users/request-reset`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ emailAddress: "x@example.com" }) });
      }
      expect(api!.status).toBe(429);
      expect((await api!.json()).message).toBe(SERVER_MESSAGES.tooManyRequests);
    } finally {
      await s.close();
    }
  });
});

describe.runIf(drivers.includes("postgres"))("database time limits on postgres", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("postgres", {}, { seed: false });
  });
  afterAll(() => server?.close());

  it("answers 503 with the error page, not a hang, while a lock is held, and /readyz within 2 s", async () => {
    const member = await createSignedInAccount(server.services, { validThrough: dateFromToday(10) });
    const holder = new pg.Client({ connectionString: server.database.url });
    await holder.connect();
    try {
      await holder.query("begin");
      await holder.query("lock table sessions in access exclusive mode");
      const started = Date.now();
      const page = await fetch(`${server.url}/about`, { headers: { cookie: member.cookie } });
      const html = await page.text();
      expect(page.status).toBe(503);
      expect(html).toContain("UNKNOWN ERROR ON THE DEVELOPER");
      expect(Date.now() - started).toBeLessThan(6000);
      const api = await fetch(`${server.url}/api/users/relogin`, { method: "POST", headers: { cookie: member.cookie } });
      expect(api.status).toBe(503);
      const healthStarted = Date.now();
      const health = await fetch(`${server.url}/readyz`);
      expect([200, 503]).toContain(health.status);
      expect(Date.now() - healthStarted).toBeLessThan(2000);
    } finally {
      await holder.query("rollback").catch(() => undefined);
      await holder.end();
    }
  });
});
