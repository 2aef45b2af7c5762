/**
 * Renditions are made before a visitor asks (issue 25), on both databases: after the warmer's
 * run, every image the home page shows answers from the cache on its very first request, and a
 * team saved with a new logo has its logo warmed after the change, without a visitor.
 */
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { teams } from "../../server/db/schema";
import { imagesInUse } from "../../server/catalog/images-in-use";
import { createRenditionWarmer } from "../../server/images/rendition-warmer";
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

  it("without the warmer a first request renders; after it, every home image is a cache hit at once", async () => {
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
});
