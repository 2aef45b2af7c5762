/** Page titles and descriptions in one shape for every route's `meta`. */
import { SITE_NAME } from "~/shared/site";

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
  /** Absolute canonical address of the page. */
  canonical?: string;
  image?: string;
  type?: "website" | "article" | "profile";
  jsonLd?: Record<string, unknown>;
}

/** Title, description, canonical link, Open Graph and JSON-LD for a page. */
export function seoMeta(o: SeoOptions) {
  const tags: Record<string, unknown>[] = pageMeta(o.title, o.description).filter(
    (t) => !("property" in t && t.property === "og:type"),
  );
  tags.push({ property: "og:type", content: o.type ?? "website" });
  if (o.canonical) {
    tags.push({ tagName: "link", rel: "canonical", href: o.canonical });
    tags.push({ property: "og:url", content: o.canonical });
  }
  if (o.image) tags.push({ property: "og:image", content: o.image });
  if (o.jsonLd) tags.push({ "script:ld+json": { "@context": "https://schema.org", ...o.jsonLd } });
  return tags;
}
