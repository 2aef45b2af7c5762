/**
 * The stored-page front and the owner's side of it (decision 045), in one process: an Express
 * owner on a Unix socket behind `acceptFromFront`, and a front in front of it. What a client
 * sees: a shared visitor's page answered with the owner's bytes and headers, by the front; a
 * signed-in person's request, a POST and anything not shared passed to the owner; the client's
 * address, scheme and host as Express would see them without the front, under each TRUST_PROXY;
 * nothing answered by the front after a change or past the page's time limit; and the owner's
 * socket closed to anyone without the secret.
 */
import { once } from "node:events";
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { acceptFromFront, FRONT_PEER, FRONT_SECRET } from "../../server/front/front-hop";
import { createStoredPageFront } from "../../server/front/stored-page-front";
import { precompress } from "../../server/http/precompressed";
import { VISITOR_KEY, type SharedPage } from "../../server/pages/page-cache";

const SECRET = "s".repeat(64);
const silent = pino({ level: "silent" });

interface Answer {
  status: number;
  headers: IncomingMessage["headers"];
  body: string;
}

/** One request on a connection of its own. */
function ask(port: number, pathname: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: pathname, method: options.method ?? "GET", headers: options.headers, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

async function page(html: string): Promise<SharedPage> {
  const content = await precompress(Buffer.from(html), { shared: true });
  const wire = (encoding?: string) => ["content-type", "text/html; charset=utf-8", "x-cache", "HIT", "etag", content.etag, ...(encoding ? ["content-encoding", encoding] : []), "x-request-id", ""];
  return { status: 200, content, wire: { identity: wire(), gzip: content.gzip && wire("gzip"), br: content.br && wire("br"), notModified: ["etag", content.etag, "x-request-id", ""] } };
}

describe("the stored-page front", () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  });

  /** An owner that answers every request with what Express sees of it, and a front before it. */
  async function start(trustProxy: false | number | string[], now = () => 0) {
    const socket = path.join(tmpdir(), `museum-front-test-${process.pid}-${servers.length}.sock`);
    const app = express();
    app.set("trust proxy", trustProxy);
    app.all("/{*splat}", express.text({ type: "*/*" }), (req, res) => {
      res.setHeader("x-answered-by", "owner");
      res.json({ ip: req.ip, ips: req.ips, protocol: req.protocol, secure: req.secure, host: req.host, hostname: req.hostname, method: req.method, url: req.url, body: req.body as unknown, sawSecret: FRONT_SECRET in req.headers || FRONT_PEER in req.headers });
    });
    const owner = createServer((req: IncomingMessage, res: ServerResponse) => {
      if (!acceptFromFront(req, SECRET)) {
        res.writeHead(403);
        return void res.end("Forbidden");
      }
      app(req, res);
    });
    owner.listen(socket);
    await once(owner, "listening");
    servers.push(owner);
    const front = createStoredPageFront({ ownerSocket: socket, secret: SECRET, logger: silent, ttlMs: 60_000, now });
    const server = createServer((req, res) => front.handle(req, res)).listen(0, "127.0.0.1");
    await once(server, "listening");
    servers.push(server);
    return { front, socket, port: (server.address() as AddressInfo).port };
  }

  it("answers a shared visitor's page with the owner's bytes and headers, and passes on the rest", async () => {
    const { front, port } = await start(false);
    front.shared(`${VISITOR_KEY}/about`, await page("<h1>About the museum</h1>"), 0);
    const held = await ask(port, "/about", { headers: { "accept-encoding": "identity" } });
    expect(held.status).toBe(200);
    expect(held.body).toBe("<h1>About the museum</h1>");
    expect(held.headers["x-answered-by"]).toBeUndefined();
    expect(held.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(await ask(port, "/about", { headers: { "if-none-match": held.headers.etag! } })).toMatchObject({ status: 304, body: "" });
    // A signed-in person, another spelling, a query and a POST: the owner answers.
    for (const other of [
      ask(port, "/about", { headers: { cookie: `museum_session=${"t".repeat(43)}` } }),
      ask(port, "/about", { headers: { authorization: `Bearer ${"t".repeat(43)}` } }),
      ask(port, "/ABOUT"),
      ask(port, "/about?utm=x"),
      ask(port, "/about", { method: "POST", headers: { "content-type": "text/plain" }, body: "hello" }),
    ]) {
      const answer = await other;
      expect(answer.headers["x-answered-by"]).toBe("owner");
      expect(JSON.parse(answer.body).sawSecret).toBe(false);
    }
    const posted = JSON.parse((await ask(port, "/contact", { method: "POST", headers: { "content-type": "text/plain" }, body: "a message" })).body);
    expect(posted).toMatchObject({ method: "POST", url: "/contact", body: "a message" });
  });

  it("answers nothing it held after a change, nor past the page's time limit, nor a page that is not a visitor's", async () => {
    let clock = 0;
    const { front, port } = await start(false, () => clock);
    front.shared(`${VISITOR_KEY}/`, await page("<h1>Home</h1>"), 0);
    front.shared(`${VISITOR_KEY}/teams`, await page("<h1>Teams</h1>"), 50_000);
    front.shared(`member\u0000Ada\u0000/`, await page("<h1>Welcome, Ada</h1>"), 0);
    expect((await ask(port, "/")).body).toBe("<h1>Home</h1>");
    expect((await ask(port, "/teams")).body).toBe("<h1>Teams</h1>");
    clock = 10_000;
    expect((await ask(port, "/teams")).headers["x-answered-by"]).toBe("owner");
    expect((await ask(port, "/")).body).toBe("<h1>Home</h1>");
    expect(front.size()).toBe(1);
    front.changed();
    expect((await ask(port, "/")).headers["x-answered-by"]).toBe("owner");
  });

  it("gives the owner the client's address, scheme and host as Express sees them without the front", async () => {
    const forged = { "x-forwarded-for": "203.0.113.9", "x-forwarded-proto": "https", "x-forwarded-host": "evil.example" };
    // No proxy before the site: the peer is the client, whatever it says.
    const direct = await start(false);
    expect(JSON.parse((await ask(direct.port, "/x", { headers: forged })).body)).toMatchObject({ ip: "127.0.0.1", ips: [], protocol: "http", secure: false, host: `127.0.0.1:${direct.port}` });
    // One trusted proxy (nginx on this machine): its X-Forwarded-* are believed.
    const behindOne = await start(1);
    expect(JSON.parse((await ask(behindOne.port, "/x", { headers: forged })).body)).toMatchObject({ ip: "203.0.113.9", protocol: "https", secure: true, host: "evil.example", hostname: "evil.example" });
    // A client before that proxy cannot add hops of its own.
    const chained = JSON.parse((await ask(behindOne.port, "/x", { headers: { "x-forwarded-for": "198.51.100.1, 203.0.113.9" } })).body);
    expect(chained.ip).toBe("203.0.113.9");
    // Trusted by address: loopback is trusted, and so the address it names is the client's.
    const byAddress = await start(["loopback"]);
    expect(JSON.parse((await ask(byAddress.port, "/x", { headers: forged })).body)).toMatchObject({ ip: "203.0.113.9", protocol: "https" });
  });

  it("keeps its socket closed to anyone without the secret, and lets no one pose as the front", async () => {
    const { socket, port } = await start(false);
    const straight = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        request({ socketPath: socket, path: "/x", headers, agent: false }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
          .on("error", reject)
          .end();
      });
    expect(await straight({})).toBe(403);
    expect(await straight({ [FRONT_PEER]: "203.0.113.9", [FRONT_SECRET]: "x".repeat(64) })).toBe(403);
    expect(await straight({ [FRONT_PEER]: "203.0.113.9", [FRONT_SECRET]: SECRET })).toBe(200);
    // A client that sends the front's own headers gets its real address all the same.
    const posed = JSON.parse((await ask(port, "/x", { headers: { [FRONT_PEER]: "203.0.113.9", [FRONT_SECRET]: "x" } })).body);
    expect(posed.ip).toBe("127.0.0.1");
  });

  it("answers 503 with Retry-After while the owner is away, and what it holds all the same", async () => {
    const missing = path.join(tmpdir(), `museum-front-test-missing-${process.pid}.sock`);
    const front = createStoredPageFront({ ownerSocket: missing, secret: SECRET, logger: silent, ttlMs: 60_000 });
    front.shared(`${VISITOR_KEY}/`, await page("<h1>Home</h1>"), 0);
    const server = createServer((req, res) => front.handle(req, res)).listen(0, "127.0.0.1");
    await once(server, "listening");
    servers.push(server);
    const port = (server.address() as AddressInfo).port;
    expect((await ask(port, "/")).body).toBe("<h1>Home</h1>");
    const away = await ask(port, "/account");
    expect(away.status).toBe(503);
    expect(away.headers["retry-after"]).toBe("5");
    expect(away.body).toBe("The museum's site is restarting. Please try again in a few seconds.\n");
  });
});
