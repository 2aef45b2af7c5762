/**
 * Share cards (decision 027): a 1200x630 PNG per page, drawn by sharp on the museum's card design
 * (ink background, gold bands, the museum's name, the page's title) with the record's PUBLIC
 * image: an exhibit's thumbnail only when it is a public file (never a member-only photo,
 * member-only.ts), else the team's logo; an enshrinee gets the logo of the team of their
 * earliest exhibit; pages without a record get the default card. Cards are kept in a bounded
 * disk cache like the renditions, keyed by the record's id and updated_at (and the image's own
 * ETag), so a changed record gets a new card and an unchanged one is drawn once.
 */
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { and, asc, eq } from "drizzle-orm";
import sharp, { type OverlayOptions } from "sharp";
import { PAGE_CARD_TITLES, SHARE_CARD_HEIGHT, SHARE_CARD_WIDTH, isPageCard, type ShareCardRef } from "../../app/shared/share-cards";
import { visibleAt } from "../catalog/publication";
import type { Database } from "../db/client";
import { categories, enshrineeExhibits, enshrinees, exhibits, teams } from "../db/schema";
import { createDiskCache } from "./disk-cache";
import { ImageRequestError, type ImageService } from "./image-service";
import { writeAtomically } from "../files/write-atomically";
import { isMemberOnlyImage } from "./member-only";
import { createRenderQueue, RenderQueueFullError } from "./render-queue";

/** Bump when the design changes: every card is drawn again. */
const CARD_VERSION = 2;
/** The rendition height the card's image is drawn from (an allowed height, decision 009). */
const SOURCE_HEIGHT = 400;
const CARD_CACHE_BYTES = 32 * 1024 * 1024;
/** Museum colours (app/site-rules.css). */
const INK = "#101820";
const GOLD = "#ffb612";
const STEEL = "#3a4a58";
/** Generic families: a Debian server has DejaVu or Liberation, not the site's webfonts. */
const FONT = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a card shows, and what its cache key depends on. */
interface CardContent {
  title: string;
  subtitle: string;
  /** A public media file (logos/, banners/), or null for the default design. */
  image: string | null;
  version: unknown[];
}

const notFound = () => new ImageRequestError(404, "Share card not found.");

const escapeXml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");

/** Splits `text` into at most `maxLines` lines of about `width` characters, the last one cut with an ellipsis. */
export function wrapText(text: string, width: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (candidate.length <= width || !line) line = candidate.length > width ? `${candidate.slice(0, width - 1)}…` : candidate;
    else {
      lines.push(line);
      line = word.length > width ? `${word.slice(0, width - 1)}…` : word;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  const last = kept[maxLines - 1];
  kept[maxLines - 1] = `${last.length >= width ? last.slice(0, width - 1) : last}…`;
  return kept;
}

/** The card's background and text as SVG (text drawn by librsvg with the server's fonts). */
function cardSvg(museumName: string, content: CardContent, withImage: boolean): string {
  // Characters per line for DejaVu Sans Bold (about 0.62 em a character): 664 px beside the
  // image panel, 1056 px without it.
  const textWidth = withImage ? 18 : 26;
  const titleLines = wrapText(content.title, textWidth, 3);
  const titleSize = withImage || titleLines.length > 2 ? 56 : 64;
  const titleTop = 250;
  const title = titleLines
    .map((l, i) => `<text x="72" y="${titleTop + i * (titleSize + 12)}" font-size="${titleSize}" font-weight="700" fill="#ffffff">${escapeXml(l)}</text>`)
    .join("");
  const subtitleY = titleTop + titleLines.length * (titleSize + 12) + 24;
  const panel = withImage ? `<rect x="760" y="135" width="380" height="380" rx="24" fill="#ffffff"/>` : "";
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SHARE_CARD_WIDTH}" height="${SHARE_CARD_HEIGHT}" viewBox="0 0 ${SHARE_CARD_WIDTH} ${SHARE_CARD_HEIGHT}">
<rect width="100%" height="100%" fill="${INK}"/>
<rect x="0" y="0" width="${SHARE_CARD_WIDTH}" height="18" fill="${GOLD}"/>
<rect x="0" y="${SHARE_CARD_HEIGHT - 18}" width="${SHARE_CARD_WIDTH}" height="18" fill="${GOLD}"/>
<rect x="72" y="150" width="96" height="8" fill="${GOLD}"/>
<g font-family="${FONT}">
<text x="72" y="110" font-size="30" font-weight="700" fill="${GOLD}" letter-spacing="1">${escapeXml(museumName.toUpperCase())}</text>
${title}
<text x="72" y="${subtitleY}" font-size="32" fill="#d6dbe0">${escapeXml(wrapText(content.subtitle, withImage ? 32 : 54, 1)[0] ?? "")}</text>
</g>
<rect x="0" y="${SHARE_CARD_HEIGHT - 18}" width="${SHARE_CARD_WIDTH}" height="2" fill="${STEEL}"/>
${panel}
</svg>`;
}

async function drawCard(museumName: string, content: CardContent, image: Buffer | null): Promise<Buffer> {
  const layers: OverlayOptions[] = [];
  if (image) {
    const logo = await sharp(image).resize({ width: 320, height: 320, fit: "contain", background: { r: 255, g: 255, b: 255, alpha: 0 } }).png().toBuffer();
    layers.push({ input: logo, left: 790, top: 165 });
  }
  const base = sharp(Buffer.from(cardSvg(museumName, content, image !== null)), { density: 72 }).resize(SHARE_CARD_WIDTH, SHARE_CARD_HEIGHT);
  return base.composite(layers).flatten({ background: INK }).png({ compressionLevel: 6 }).toBuffer();
}

/** Parses "/teams/<uuid>.png"-style tails of a card address; anything else is not found. */
export function parseShareCardPath(kind: string, rest: string): ShareCardRef {
  if (!rest.endsWith(".png")) throw notFound();
  const parts = rest.slice(0, -4).split("/");
  if (kind === "pages" && parts.length === 1 && isPageCard(parts[0])) return { kind, page: parts[0] };
  if (!parts.every((p) => UUID.test(p))) throw notFound();
  if (kind === "categories" && parts.length === 2) return { kind, teamId: parts[0], categoryId: parts[1] };
  if ((kind === "teams" || kind === "exhibits" || kind === "enshrinees") && parts.length === 1) return { kind, id: parts[0] };
  throw notFound();
}

export function createShareCards(o: { db: Database; images: ImageService; cacheDir: string; museumName: string; now?: () => Date }) {
  const { db } = o;
  const now = o.now ?? (() => new Date());
  const cacheDir = path.resolve(o.cacheDir);
  const cache = createDiskCache({ dir: cacheDir, maxBytes: CARD_CACHE_BYTES });
  const queue = createRenderQueue({ concurrency: 1, maxQueued: 32 });
  const inFlight = new Map<string, Promise<void>>();

  const ms = (d: Date) => d.getTime();

  async function teamRow(id: string) {
    const [t] = await db.select({ name: teams.name, league: teams.league, logo: teams.logo, updatedAt: teams.updatedAt }).from(teams).where(eq(teams.id, id)).limit(1);
    return t;
  }

  /** What the card of `ref` shows; only public fields and public images are read. */
  async function contentOf(ref: ShareCardRef): Promise<CardContent> {
    switch (ref.kind) {
      case "pages":
        return { title: PAGE_CARD_TITLES[ref.page], subtitle: "Teams, exhibits, Wall of Fame, favorite stories", image: null, version: [ref.page] };
      case "teams": {
        const t = await teamRow(ref.id);
        if (!t) throw notFound();
        return { title: t.name, subtitle: t.league, image: t.logo, version: [ref.id, ms(t.updatedAt)] };
      }
      case "categories": {
        const [t, [c]] = await Promise.all([
          teamRow(ref.teamId),
          db.select({ name: categories.categoryName, updatedAt: categories.updatedAt }).from(categories).where(eq(categories.id, ref.categoryId)).limit(1),
        ]);
        if (!t || !c) throw notFound();
        return { title: c.name, subtitle: t.name, image: t.logo, version: [ref.teamId, ms(t.updatedAt), ref.categoryId, ms(c.updatedAt)] };
      }
      case "exhibits": {
        const [e] = await db
          .select({ title: exhibits.title, year: exhibits.year, thumbnail: exhibits.thumbnail, updatedAt: exhibits.updatedAt, team: teams.name, logo: teams.logo, teamUpdatedAt: teams.updatedAt })
          .from(exhibits)
          .innerJoin(teams, eq(teams.id, exhibits.teamId))
          .where(and(eq(exhibits.id, ref.id), eq(exhibits.active, true), visibleAt(exhibits.publishAt, now())))
          .limit(1);
        if (!e) throw notFound();
        // Exhibit photos are member-only (decision 004): the team's logo stands in for them.
        const image = e.thumbnail && !isMemberOnlyImage(e.thumbnail) ? e.thumbnail : e.logo;
        return { title: e.title, subtitle: `${e.team} · ${e.year}`, image, version: [ref.id, ms(e.updatedAt), ms(e.teamUpdatedAt)] };
      }
      case "enshrinees": {
        const [p] = await db.select({ fullName: enshrinees.fullName, updatedAt: enshrinees.updatedAt }).from(enshrinees).where(and(eq(enshrinees.id, ref.id), visibleAt(enshrinees.publishAt, now()))).limit(1);
        if (!p) throw notFound();
        const [first] = await db
          .select({ logo: teams.logo, teamUpdatedAt: teams.updatedAt })
          .from(enshrineeExhibits)
          .innerJoin(exhibits, eq(exhibits.id, enshrineeExhibits.exhibitId))
          .innerJoin(teams, eq(teams.id, exhibits.teamId))
          .where(and(eq(enshrineeExhibits.enshrineeId, ref.id), visibleAt(exhibits.publishAt, now())))
          .orderBy(asc(exhibits.year), asc(exhibits.title))
          .limit(1);
        return {
          title: p.fullName,
          subtitle: "Pittsburgh Sports Hall of Fame",
          image: first?.logo ?? null,
          version: [ref.id, ms(p.updatedAt), first ? ms(first.teamUpdatedAt) : null],
        };
      }
    }
  }

  /** The public image as an open PNG rendition (the image service's cache) and its ETag; null when there is none. */
  async function sourceImage(file: string | null): Promise<{ handle: fs.FileHandle; etag: string } | null> {
    if (!file || isMemberOnlyImage(file)) return null;
    try {
      const r = await o.images.openRendition(file, SOURCE_HEIGHT, "image/png");
      return r.body ? { handle: r.body.handle, etag: r.etag } : null;
    } catch (error) {
      // A missing original: the default design rather than no card.
      if (error instanceof ImageRequestError && error.status === 404) return null;
      throw error;
    }
  }

  return {
    /**
     * The card of `ref` as PNG bytes and a strong ETag, drawn when the cache does not hold it.
     * 404 for an unknown record, 503 when too many cards wait to be drawn.
     */
    async open(ref: ShareCardRef): Promise<{ etag: string; body: Buffer }> {
      const content = await contentOf(ref);
      const source = await sourceImage(content.image);
      try {
        const key = createHash("sha256")
          .update(JSON.stringify([CARD_VERSION, o.museumName, ref, content.title, content.subtitle, ...content.version, source?.etag ?? null]))
          .digest("hex");
        const name = `${key}.png`;
        const etag = `"${key.slice(0, 40)}"`;
        const target = path.join(cacheDir, name);
        const cached = await fs.readFile(target).catch(() => undefined);
        if (cached?.length) {
          cache.noteHit(name, cached.length, Date.now());
          return { etag, body: cached };
        }
        let job = inFlight.get(key);
        if (!job) {
          job = queue
            .run(async () => {
              const png = await drawCard(o.museumName, content, source ? await source.handle.readFile() : null);
              await fs.mkdir(cacheDir, { recursive: true });
              await writeAtomically(target, png);
              await cache.noteWrite(name, png.length);
            })
            .catch((error: unknown) => {
              throw error instanceof RenderQueueFullError ? new ImageRequestError(503, "The image service is busy. Please try again in a few seconds.") : error;
            })
            .finally(() => inFlight.delete(key));
          inFlight.set(key, job);
        }
        await job;
        return { etag, body: await fs.readFile(target) };
      } finally {
        await source?.handle.close();
      }
    },
  };
}

export type ShareCards = ReturnType<typeof createShareCards>;
