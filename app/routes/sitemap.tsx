/**
 * sitemap.xml: every public page (static pages, teams, categories, exhibits, enshrinees), each
 * with a lastmod from its records' update times (decision 027): a team page changes with the
 * team, a category page with its exhibits, an exhibit with its team and category, the home and
 * list pages with the newest record; the site's own texts with MUSEUM.textsUpdated.
 */
import type { Route } from "./+types/sitemap";
import { MUSEUM } from "~/content/museum";
import { categoryPath, enshrineePath, exhibitPath, teamPath } from "~/shared/exhibit-links";

/** Pages that list the collection: they change whenever any record does. */
const COLLECTION_PATHS = ["/", "/enshrinees", "/favoritestories"];
/** Pages of the site's own texts. */
const TEXT_PATHS = ["/about", "/contact", "/admission", "/subscribe", "/termsandconditions", "/privacypolicy"];

const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export async function loader({ context }: Route.LoaderArgs) {
  const { catalog } = context.services;
  const base = context.settings.publicUrl;
  const [teams, exhibits, enshrinees, times] = await Promise.all([
    catalog.listTeams(),
    catalog.listExhibits({ active: true }, false),
    catalog.listEnshrinees(),
    context.services.lastModified.collection(),
  ]);
  const textsUpdated = new Date(`${MUSEUM.textsUpdated}T00:00:00Z`);
  const latest = (...dates: (Date | undefined)[]) => new Date(Math.max(textsUpdated.getTime(), ...dates.map((d) => d?.getTime() ?? 0)));
  const exhibitTime = (e: (typeof exhibits)[number]) =>
    latest(times.exhibits.get(e._id), times.teams.get(e.team._id), times.categories.get(e.category._id));
  const categoryPages = new Map<string, Date>();
  for (const e of exhibits) {
    const p = categoryPath(e.team._id, e.category._id);
    categoryPages.set(p, latest(categoryPages.get(p), exhibitTime(e)));
  }
  const newest = latest(...[times.teams, times.categories, times.exhibits, times.enshrinees].flatMap((m) => [...m.values()]));
  const entries: [string, Date][] = [
    ...COLLECTION_PATHS.map((p): [string, Date] => [p, newest]),
    ...TEXT_PATHS.map((p): [string, Date] => [p, textsUpdated]),
    ...teams.map((t): [string, Date] => [teamPath(t._id), latest(times.teams.get(t._id))]),
    ...categoryPages,
    ...exhibits.map((e): [string, Date] => [exhibitPath(e), exhibitTime(e)]),
    ...enshrinees.map((p): [string, Date] => [enshrineePath(p), latest(times.enshrinees.get(p._id))]),
  ];
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries
    .map(([p, at]) => `  <url><loc>${escapeXml(base + p)}</loc><lastmod>${at.toISOString()}</lastmod></url>`)
    .join("\n")}\n</urlset>\n`;
  return new Response(body, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
