/**
 * Renditions are made before a visitor asks, on both databases: after the warmer's
 * run, every image the home page shows answers from the cache on its very first request, and a
 * team saved with a new logo has its logo warmed after the change, without a visitor; the home
 * page's renditions go at once, any other waits while a request is in flight and starts once the
 * site has been quiet (decision 041).
 */
import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { teams } from "../../server/db/schema";
import { imagesInUse } from "../../server/catalog/images-in-use";
import { createRenditionWarmer, QUIET_MS } from "../../server/images/rendition-warmer";
import { createTrafficGauge } from "../../server/http/traffic";
import { createLogger } from "../../server/logger";
import { availableDrivers } from "../helpers/databases";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();
const AVIF = "image/avif,image/webp,image/apng,image/*,*/*;q=0.8";

/** The images/view addresses of a page's <img> tags, srcset included. */
function imageAddresses(html: string): string[] {
  const found = new Set<string>();
  for (const m of html.matchAll(/\/images\/view\/[^"'\s,\\]+/g)) found.add(m[0].replace(/&amp;/g, "&"));
  return [...found];
}

describe.each(drivers)("rendition warmer on %s", (kind) => {
  let server: TestServer;
  let homeImages: string[];
  const firstRequest = async (address: string) => {
    const res = await fetch(`${server.url}${address}`, { headers: { accept: AVIF } });
    await res.arrayBuffer();
    return { status: res.status, cache: res.headers.get("x-cache") };
  };

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { seed: true });
    homeImages = imageAddresses(await (await fetch(`${server.url}/`)).text());
  }, 120_000);
  afterAll(() => server?.close());

  it("lists the home page's images first: banners, then logos", async () => {
    const wanted = await imagesInUse(server.services.database.db);
    const homeFiles = new Set(homeImages.map((a) => decodeURIComponent(a.slice("/images/view/".length).split("?")[0])));
    expect(homeFiles.size).toBeGreaterThan(3);
    const firstFiles = new Set(wanted.slice(0, homeImages.length).map((w) => w.file));
    expect([...homeFiles].filter((f) => !firstFiles.has(f))).toEqual([]);
  });

  // The home page's whole set of renders once, on the first database: a render does not depend on
  // it, and the next test warms an image read from each database's own storage.
  it.runIf(kind === drivers[0])("without the warmer a first request renders; after it, every home image is a cache hit at once", async () => {
    // The control: one image of the home page asked for before any warming waits for a render.
    const [control, ...rest] = homeImages;
    expect(await firstRequest(control)).toEqual({ status: 200, cache: "MISS" });

    const db = server.services.database.db;
    const warmer = createRenditionWarmer({
      images: server.services.images,
      // The home page's part of the list: the test need not wait for every exhibit photo.
      wanted: async () => (await imagesInUse(db)).slice(0, homeImages.length + 2),
      logger: createLogger("silent"),
    });
    const run = await warmer.runOnce();
    expect(run.failed).toBe(0);
    expect(run.rendered).toBeGreaterThan(0);
    for (const address of rest) expect({ address, ...(await firstRequest(address)) }).toEqual({ address, status: 200, cache: "HIT" });
    // A second run finds nothing to do.
    expect((await warmer.runOnce()).rendered).toBe(0);
  }, 120_000);

  it("a logo that arrives with a saved team is warmed by the next run, before anyone asks", async () => {
    const db = server.services.database.db;
    const [team] = await db.select().from(teams).limit(1);
    const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: "#ffb612" } }).png().toBuffer();
    const file = `logos/warm-${Date.now()}.png`;
    await server.services.images.writeOriginal(file, png);
    await db.update(teams).set({ logo: file }).where(eq(teams.id, team.id));
    const warmer = createRenditionWarmer({
      images: server.services.images,
      wanted: async () => (await imagesInUse(db)).filter((w) => w.file === file),
      logger: createLogger("silent"),
    });
    expect((await warmer.runOnce()).rendered).toBe(1);
    expect(await firstRequest(`/images/view/${file}?height=150`)).toEqual({ status: 200, cache: "HIT" });
  }, 60_000);
  it("the home page's renditions go at once, the others wait until no request has been in flight for a while", async () => {
    const db = server.services.database.db;
    const [team] = await db.select().from(teams).limit(1);
    const png = (background: string) => sharp({ create: { width: 300, height: 300, channels: 3, background } }).png().toBuffer();
    const logo = `logos/quiet-${Date.now()}.png`;
    const photo = `exhibits/quiet-${Date.now()}.png`;
    await server.services.images.writeOriginal(logo, await png("#203731"));
    await server.services.images.writeOriginal(photo, await png("#ffb612"));
    await db.update(teams).set({ logo }).where(eq(teams.id, team.id));
    const traffic = createTrafficGauge();
    const visitor = new EventEmitter() as unknown as ServerResponse;
    traffic.track(visitor);
    const lowered: string[] = [];
    const rendered: string[] = [];
    const warmer = createRenditionWarmer({
      images: {
        warm: async (file, height, beforeRender) => {
          const outcome = await server.services.images.warm(file, height, beforeRender);
          rendered.push(file);
          return outcome;
        },
      },
      // The new team logo (listed as the home page's), then a photo no home page shows.
      wanted: async () => [...(await imagesInUse(db)).filter((w) => w.file === logo), { file: photo, height: 800 }],
      logger: createLogger("silent"),
      traffic,
      lowerPriority: () => lowered.push(`before ${rendered.length} done`),
    });
    let finished = false;
    const run = warmer.runOnce().finally(() => (finished = true));
    await new Promise((r) => setTimeout(r, QUIET_MS + 500));
    // The logo was made although a request is in flight; the photo waits, and nothing was lowered for the logo.
    expect({ finished, rendered, lowered }).toEqual({ finished: false, rendered: [logo], lowered: ["before 1 done"] });
    expect(await firstRequest(`/images/view/${logo}?height=150`)).toEqual({ status: 200, cache: "HIT" });
    // The visitor's answer is sent: the photo follows once the site has been quiet for QUIET_MS.
    visitor.emit("close");
    const closedAt = Date.now();
    expect((await run).rendered).toBe(2);
    expect(Date.now() - closedAt).toBeGreaterThanOrEqual(QUIET_MS - 50);
    expect(rendered).toEqual([logo, photo]);
  }, 60_000);

  it("a wait for quiet ends when the warmer stops, and nothing is rendered after it", async () => {
    const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: "#c60c30" } }).png().toBuffer();
    const file = `logos/stop-${Date.now()}.png`;
    await server.services.images.writeOriginal(file, png);
    const traffic = createTrafficGauge();
    traffic.track(new EventEmitter() as unknown as ServerResponse);
    const runs: number[] = [];
    const warmer = createRenditionWarmer({
      images: server.services.images,
      wanted: async () => [{ file, height: 150 }],
      logger: createLogger("silent"),
      traffic,
      onRun: (r) => runs.push(r.rendered + r.failed),
    });
    const rendersBefore = server.services.images.stats().renders.started;
    warmer.start(0);
    await new Promise((r) => setTimeout(r, 300));
    const stoppedAt = Date.now();
    await warmer.stop();
    expect(Date.now() - stoppedAt).toBeLessThan(1000);
    expect(runs).toEqual([0]);
    expect(server.services.images.stats().renders.started - rendersBefore).toBe(0);
  }, 60_000);
});
