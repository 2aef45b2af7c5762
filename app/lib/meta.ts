/** Page titles and descriptions in one shape for every route's `meta`. */
import { SITE_NAME } from "~/shared/site";
import { SHARE_CARD_HEIGHT, SHARE_CARD_WIDTH, shareCardPath, type PageCard, type ShareCardRef } from "~/shared/share-cards";

export function pageMeta(title: string, description: string) {
  return [
    { title: title === SITE_NAME ? title : `${title} | ${SITE_NAME}` },
    { name: "description", content: description },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:type", content: "website" },
  ];
}

export interface SeoOptions {
  title: string;
  description: string;
  /** Absolute canonical address of the page (also og:url); left out on noindex pages. */
  canonical?: string;
  /** PUBLIC_URL: the base of the share card's address (decision 027). */
  publicUrl?: string;
  /** The page's share card; pages without a record use the default card. */
  card?: ShareCardRef;
  type?: "website" | "article" | "profile";
  jsonLd?: Record<string, unknown>;
}

/** The absolute address of a share card on PUBLIC_URL. */
export function shareCardUrl(publicUrl: string, card: ShareCardRef): string {
  return `${publicUrl}${shareCardPath(card)}`;
}

/** `href` made absolute on PUBLIC_URL unless it already is. */
export function absoluteUrl(publicUrl: string, href: string): string {
  return /^https?:\/\//.test(href) ? href : `${publicUrl}${href.startsWith("/") ? "" : "/"}${href}`;
}

/** Title, description, canonical link, Open Graph, Twitter card and JSON-LD for a page. */
export function seoMeta(o: SeoOptions) {
  const tags: Record<string, unknown>[] = pageMeta(o.title, o.description).filter(
    (t) => !("property" in t && t.property === "og:type"),
  );
  tags.push({ property: "og:type", content: o.type ?? "website" });
  if (o.canonical) {
    tags.push({ tagName: "link", rel: "canonical", href: o.canonical });
    tags.push({ property: "og:url", content: o.canonical });
  }
  const publicUrl = o.publicUrl;
  if (publicUrl !== undefined) {
    const image = shareCardUrl(publicUrl, o.card ?? { kind: "pages", page: "page" });
    const alt = o.title === SITE_NAME ? SITE_NAME : `${o.title}: ${SITE_NAME}`;
    tags.push(
      { property: "og:image", content: image },
      { property: "og:image:type", content: "image/png" },
      { property: "og:image:width", content: String(SHARE_CARD_WIDTH) },
      { property: "og:image:height", content: String(SHARE_CARD_HEIGHT) },
      { property: "og:image:alt", content: alt },
      // X reads the title and description from og:title and og:description; the image and its
      // text are named for it too, as its validator asks.
      { name: "twitter:card", content: "summary_large_image" },
      { name: "twitter:image", content: image },
      { name: "twitter:image:alt", content: alt },
    );
  }
  if (o.jsonLd) tags.push({ "script:ld+json": { "@context": "https://schema.org", ...o.jsonLd } });
  return tags;
}

type MetaMatches = ReadonlyArray<{ id: string; data?: unknown } | undefined>;

/** PUBLIC_URL from the root loader's settings (for pages without a loader of their own). */
export function publicUrlOf(matches: MetaMatches): string | undefined {
  const root = matches.find((m) => m?.id === "root")?.data as { settings?: { publicUrl?: string } } | undefined;
  return root?.settings?.publicUrl;
}

/** An indexable page without a record (about, contact, ...): canonical link and its default share card. */
export function staticPageMeta(matches: MetaMatches, o: { title: string; description: string; path: string; card: PageCard }) {
  const publicUrl = publicUrlOf(matches);
  return seoMeta({
    title: o.title,
    description: o.description,
    publicUrl,
    canonical: publicUrl === undefined ? undefined : `${publicUrl}${o.path}`,
    card: { kind: "pages", page: o.card },
  });
}
