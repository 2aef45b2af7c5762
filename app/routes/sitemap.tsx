/** sitemap.xml: every public page (static pages, teams, categories, exhibits, enshrinees). */
import type { Route } from "./+types/sitemap";
import { categoryPath, enshrineePath, exhibitPath, teamPath } from "~/shared/exhibit-links";

const STATIC_PATHS = ["/", "/about", "/enshrinees", "/favoritestories", "/contact", "/admission", "/subscribe", "/termsandconditions", "/privacypolicy"];

const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export async function loader({ context }: Route.LoaderArgs) {
  const { catalog } = context.services;
  const base = context.settings.publicUrl;
  const [teams, exhibits, enshrinees] = await Promise.all([
    catalog.listTeams(),
    catalog.listExhibits({ active: true }, false),
    catalog.listEnshrinees(),
  ]);
  const categoryPaths = new Set(exhibits.map((e) => categoryPath(e.team._id, e.category._id)));
  const paths = [
    ...STATIC_PATHS,
    ...teams.map((t) => teamPath(t._id)),
    ...categoryPaths,
    ...exhibits.map(exhibitPath),
    ...enshrinees.map(enshrineePath),
  ];
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${paths
    .map((p) => `  <url><loc>${escapeXml(base + p)}</loc></url>`)
    .join("\n")}\n</urlset>\n`;
  return new Response(body, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
