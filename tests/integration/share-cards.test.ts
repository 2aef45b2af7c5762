/**
 * Share cards and richer metadata (decision 027) in the real site on both databases:
 * every kind of page has its Open Graph and Twitter tags with absolute addresses on PUBLIC_URL,
 * its og:image is a 1200x630 PNG, a member-only photo never reaches a card, a changed record gets
 * a new card, the sitemap has a lastmod per URL, canonical links are on indexable pages only, and
 * the paywall markup's selector matches an element of the visitor's HTML.
 */
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EnshrineeSummary, ExhibitView, TeamView } from "~/shared/catalog-types";
import { categoryPath, enshrineePath, exhibitPath, teamPath } from "~/shared/exhibit-links";
import { exhibits, teams } from "../../server/db/schema";
import { availableDrivers } from "../helpers/databases";
import { createSignedInAccount, dateFromToday } from "../helpers/fixtures";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();
const PUBLIC_URL = "https://museum.example";

/** The head's meta tags (property or name → content), canonical link and JSON-LD blocks. */
function readHead(html: string) {
  const head = html.slice(0, html.indexOf("</head>"));
  const decode = (s: string) => s.replace(/&amp;/g, "&").replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">");
  const tags = new Map<string, string>();
  for (const [tag] of head.matchAll(/<meta\b[^>]*>/g)) {
    const key = /(?:property|name)="([^"]+)"/.exec(tag)?.[1];
    const content = /content="([^"]*)"/.exec(tag)?.[1];
    if (key && content !== undefined) tags.set(key, decode(content));
  }
  const canonical = /<link\b[^>]*rel="canonical"[^>]*href="([^"]+)"/.exec(head)?.[1];
  const jsonLd = [...head.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    ([, text]) => JSON.parse(text) as Record<string, unknown>,
  );
  return { tags, canonical: canonical && decode(canonical), jsonLd };
}

describe.each(drivers)("share cards on %s", (kind) => {
  let server: TestServer;
  let member: string;
  let team: TeamView;
  let exhibit: ExhibitView;
  let enshrinee: EnshrineeSummary;
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers });
  /** Fetches an absolute address on PUBLIC_URL from the test server. */
  const fetchPublic = (url: string, headers: Record<string, string> = {}) => {
    expect(url.startsWith(`${PUBLIC_URL}/`)).toBe(true);
    return get(url.slice(PUBLIC_URL.length), headers);
  };
  const pngOf = async (res: Response) => {
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^image\/(png|jpeg)/);
    const bytes = Buffer.from(await res.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect([meta.width, meta.height]).toEqual([1200, 630]);
    return bytes;
  };
  const pixels = async (bytes: Buffer) => (await sharp(bytes).raw().toBuffer()).toString("base64");

  beforeAll(async () => {
    server = await startTestServer(kind, { PUBLIC_URL, PAYMENTS: "test", MAIL: "log", PAGE_CACHE_SECONDS: "0", CATALOG_CACHE_SECONDS: "0" }, { seed: true });
    member = (await createSignedInAccount(server.services, { validThrough: dateFromToday(30) })).cookie;
    team = ((await (await get("/api/teams")).json()) as TeamView[])[0];
    const all = (await (await get("/api/exhibits/?active=true", { cookie: member })).json()) as ExhibitView[];
    exhibit = all.find((e) => e.thumbnailURL && e.team._id === team._id) ?? all[0];
    enshrinee = ((await (await get("/api/enshrinees")).json()) as EnshrineeSummary[])[0];
  }, 180_000);
  afterAll(() => server?.close());

  const indexable = () => [
    "/",
    "/about",
    "/contact",
    "/admission",
    "/subscribe",
    "/termsandconditions",
    "/privacypolicy",
    "/enshrinees",
    "/favoritestories",
    "/gift",
    "/login",
    teamPath(team._id),
    categoryPath(exhibit.team._id, exhibit.category._id),
    exhibitPath(exhibit),
    enshrineePath(enshrinee),
  ];

  it("gives every kind of page its share tags, with a 1200x630 PNG og:image on PUBLIC_URL", async () => {
    const cards = new Set<string>();
    for (const path of indexable()) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      const { tags, canonical } = readHead(await res.text());
      expect(canonical, path).toBe(`${PUBLIC_URL}${path}`);
      expect(tags.get("og:url"), path).toBe(canonical);
      for (const key of ["og:title", "og:description", "og:image:alt", "twitter:image:alt"]) expect(tags.get(key), `${path} ${key}`).toBeTruthy();
      expect(tags.get("og:image:width"), path).toBe("1200");
      expect(tags.get("og:image:height"), path).toBe("630");
      expect(tags.get("twitter:card"), path).toBe("summary_large_image");
      const image = tags.get("og:image")!;
      expect(image.startsWith(`${PUBLIC_URL}/images/share/`), path).toBe(true);
      expect(tags.get("twitter:image"), path).toBe(image);
      await pngOf(await fetchPublic(image));
      cards.add(image);
    }
    // Record pages have cards of their own.
    expect(cards.size).toBeGreaterThanOrEqual(12);
  }, 120_000);

  it("answers a card from the cache with its ETag, 304 on revalidation, and 404 for an unknown record", async () => {
    const image = readHead(await (await get(teamPath(team._id))).text()).tags.get("og:image")!;
    const first = await fetchPublic(image);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{40}"$/);
    expect(first.headers.get("cache-control")).toBe("public, max-age=3600");
    expect((await fetchPublic(image, { "if-none-match": etag })).status).toBe(304);
    const missing = await get("/images/share/teams/00000000-0000-4000-8000-000000000000.png");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: "Share card not found." });
    expect((await get("/images/share/teams/not-a-uuid.png")).status).toBe(404);
    expect((await get("/images/share/pages/nothing.png")).status).toBe(404);
  });

  it("never draws a member-only photo, draws a public one, and draws a new card when the record changes", async () => {
    const image = readHead(await (await get(exhibitPath(exhibit))).text()).tags.get("og:image")!;
    const before = await fetchPublic(image);
    const beforePixels = await pixels(await pngOf(before));
    const [row] = await server.database.handle.db.select({ thumbnail: exhibits.thumbnail }).from(exhibits).where(eq(exhibits.id, exhibit._id));
    expect(row.thumbnail.startsWith("exhibits/")).toBe(true);

    // Another member-only photo as the thumbnail: the record changed (new card, new ETag), the picture did not.
    const [other] = await server.database.handle.db.select({ thumbnail: exhibits.thumbnail }).from(exhibits).where(eq(exhibits.active, true)).limit(2).offset(1);
    expect(other.thumbnail).not.toBe(row.thumbnail);
    await server.database.handle.db.update(exhibits).set({ thumbnail: other.thumbnail }).where(eq(exhibits.id, exhibit._id));
    const swapped = await fetchPublic(image);
    expect(swapped.headers.get("etag")).not.toBe(before.headers.get("etag"));
    expect(await pixels(await pngOf(swapped))).toBe(beforePixels);

    // A public image as the thumbnail (another team's logo) is drawn: the card's picture changes.
    const [otherTeam] = await server.database.handle.db.select({ logo: teams.logo }).from(teams).where(eq(teams.id, (await (await get("/api/teams")).json() as TeamView[]).find((t) => t._id !== exhibit.team._id)!._id));
    await server.database.handle.db.update(exhibits).set({ thumbnail: otherTeam.logo }).where(eq(exhibits.id, exhibit._id));
    expect(await pixels(await pngOf(await fetchPublic(image)))).not.toBe(beforePixels);
    await server.database.handle.db.update(exhibits).set({ thumbnail: row.thumbnail }).where(eq(exhibits.id, exhibit._id));
  }, 60_000);

  it("keeps member-only text out of the JSON-LD, and gives people and works an image and a description", async () => {
    const { jsonLd } = readHead(await (await get(exhibitPath(exhibit), { cookie: member })).text());
    const work = jsonLd.find((j) => j["@type"] === "CreativeWork")!;
    expect(work.description).toBe(`${exhibit.title} (${exhibit.year}), an exhibit about the ${exhibit.team.name}. A museum ticket unlocks the photos and full text.`);
    expect(String(work.image)).toMatch(new RegExp(`^${PUBLIC_URL}/images/share/exhibits/${exhibit._id}\\.png$`));
    const person = readHead(await (await get(enshrineePath(enshrinee), { cookie: member })).text()).jsonLd.find((j) => j["@type"] === "Person")!;
    expect(person.description).toBe(`${enshrinee.fullName}, enshrined in the Pittsburgh Sports Hall of Fame: exhibits and mentions.`);
    expect(person.image).toBe(`${PUBLIC_URL}/images/share/enshrinees/${enshrinee._id}.png`);
    const museum = readHead(await (await get("/")).text()).jsonLd.find((j) => j["@type"] === "Museum")!;
    expect(museum.address).toMatchObject({ "@type": "PostalAddress", streetAddress: expect.any(String), addressLocality: "Pittsburgh", postalCode: expect.any(String) });
    expect(museum.openingHoursSpecification).toEqual(expect.arrayContaining([expect.objectContaining({ "@type": "OpeningHoursSpecification", opens: expect.any(String) })]));
    expect(String(museum.logo).startsWith(`${PUBLIC_URL}/`)).toBe(true);
  });

  it("marks the locked part with the paywall markup's selector in the visitor's HTML", async () => {
    for (const headers of [{}, { cookie: member }] as Record<string, string>[]) {
      const html = await (await get(exhibitPath(exhibit), headers)).text();
      const work = readHead(html).jsonLd.find((j) => j["@type"] === "CreativeWork")!;
      const selector = (work.hasPart as { cssSelector: string }).cssSelector;
      expect(selector).toMatch(/^\.[a-z-]+$/);
      const body = html.slice(html.indexOf("<body"));
      const elements = [...body.matchAll(/<[a-z]+\b[^>]*\bclass="([^"]*)"/g)].filter(([, cls]) => cls.split(/\s+/).includes(selector.slice(1)));
      expect(elements.length).toBe(1);
    }
  });

  it("puts a canonical link on indexable pages only", async () => {
    for (const path of ["/search?q=steelers", "/password/reset", "/no-such-page"]) {
      const html = await (await get(path)).text();
      expect(html, path).toContain('name="robots" content="noindex"');
      expect(readHead(html).canonical, path).toBeUndefined();
    }
  });

  it("gives every sitemap URL a lastmod from its records' update times", async () => {
    const read = async () => {
      const xml = await (await get("/sitemap.xml")).text();
      return [...xml.matchAll(/<url><loc>([^<]+)<\/loc><lastmod>([^<]+)<\/lastmod><\/url>/g)].map(([, loc, at]) => ({ loc, at }));
    };
    const xml = await (await get("/sitemap.xml")).text();
    const entries = await read();
    expect(entries.length).toBe((xml.match(/<url>/g) ?? []).length);
    expect(entries.length).toBeGreaterThan(20);
    for (const e of entries) expect(new Date(e.at).toISOString()).toBe(e.at);
    const loc = `${PUBLIC_URL}${exhibitPath(exhibit)}`;
    const before = entries.find((e) => e.loc === loc)!.at;
    const editedAt = new Date();
    await server.database.handle.db.update(exhibits).set({ year: exhibit.year }).where(eq(exhibits.id, exhibit._id));
    const after = (await read()).find((e) => e.loc === loc)!.at;
    expect(after > before).toBe(true);
    expect(new Date(after).getTime()).toBeGreaterThanOrEqual(editedAt.getTime() - 5_000);
  });
});
