/**
 * The page cache's path before Express (`serveStored`): a signed-in person is answered from the
 * stored page of their tier, after their session is checked on every request; a session that
 * ended gets the visitor's page; a failed check leaves the request to the whole host.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import type { AppLoadContext } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { createPageCache, type PageTier } from "../../server/pages/page-cache";
import { routeResolver } from "../helpers/test-server";

const routes = await routeResolver();

const TOKEN = "t".repeat(43);
const cookie = `museum_session=${TOKEN}`;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

async function stand(tierOf: (token: string) => Promise<PageTier | null>, edition: { text: string; gate?: Promise<void> } = { text: "" }) {
  const checks: string[] = [];
  const cache = createPageCache({
    cacheAddress: (req) => routes.resolve(req.method ?? "GET", (req.url ?? "/").split("?")[0]).cacheAddress,
    render: async (_request, context) => {
      const text = edition.text;
      await edition.gate;
      return new Response(`<p>${context.viewer ? `Hello ${context.viewer.firstName} (${context.viewer.member ? "member" : "account"})` : "visitor"}${text}</p>`, {
        headers: { "Content-Type": "text/html; charset=utf-8" },
      });
    },
    loadContext: (tier) => ({ viewer: tier, renderState: { loadFailed: false } }) as unknown as AppLoadContext,
    origin: "https://museum.example",
    ttlSeconds: 30,
    tierOf: async (token) => {
      checks.push(token);
      return tierOf(token);
    },
  });
  const app = express();
  app.use((req, res, next) => {
    res.locals.viewer = req.headers.cookie ? { member: true, firstName: "Jane" } : null;
    next();
  });
  app.use(cache.middleware);
  app.use(cache.tieredMiddleware);
  app.use((_req, res) => res.send("whole host"));
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const served = cache.serveStored(req, res);
    if (served === false) app(req, res);
    else if (served !== true) void served.then((done) => done || app(req, res));
  });
  server.listen(0, "127.0.0.1");
  await new Promise<void>((r) => server.once("listening", () => r()));
  closers.push(() => new Promise<void>((r) => server.close(() => r())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = async (headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}/about`, { headers });
    return { text: await res.text(), cache: res.headers.get("x-cache"), control: res.headers.get("cache-control") };
  };
  return { get, checks, cache };
}

describe("stored pages answered before Express", () => {
  it("answers a signed-in member from their tier's page, checking the session every time", async () => {
    let tier: PageTier | null = { member: true, firstName: "Jane" };
    const s = await stand(async () => tier);
    expect((await s.get({ cookie })).cache).toBe("MISS");
    const hit = await s.get({ cookie });
    expect(hit).toEqual({ text: "<p>Hello Jane (member)</p>", cache: "HIT", control: "private, no-store" });
    expect(s.checks.length).toBe(2);
    // Logged out (or the session expired): the very next answer is a visitor's.
    tier = null;
    await s.get();
    const after = await s.get({ cookie });
    expect(after.text).toBe("<p>visitor</p>");
    expect(s.checks.length).toBe(3);
  });

  it("leaves the request to the whole host when the session cannot be checked", async () => {
    const s = await stand(async () => {
      throw new Error("database unavailable");
    });
    await s.get({ cookie });
    expect((await s.get({ cookie })).cache).toBe("HIT");
    expect(s.checks.length).toBe(2);
  });

  it("does not answer a page stored before a change: the reader waits for its new render", async () => {
    const edition: { text: string; gate?: Promise<void> } = { text: " v1" };
    const s = await stand(async () => ({ member: true, firstName: "Jane" }), edition);
    for (const headers of [{}, { cookie }] as Record<string, string>[]) {
      await s.get(headers);
      expect((await s.get(headers)).cache).toBe("HIT");
    }
    let release!: () => void;
    edition.gate = new Promise<void>((r) => (release = r));
    edition.text = " v2";
    s.cache.changed();
    const asks = [s.get(), s.get({ cookie })];
    await new Promise((r) => setTimeout(r, 100));
    release();
    expect((await Promise.all(asks)).map((a) => a.text)).toEqual(["<p>visitor v2</p>", "<p>Hello Jane (member) v2</p>"]);
  });
});
