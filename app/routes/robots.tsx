/** robots.txt: everything public may be crawled; account pages and the API may not. */
import type { Route } from "./+types/robots";

export async function loader({ context }: Route.LoaderArgs) {
  const body = [
    "User-agent: *",
    "Disallow: /api/",
    "Disallow: /admission/payment",
    "Disallow: /password/",
    "Disallow: /login",
    "Allow: /",
    `Sitemap: ${context.settings.publicUrl}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
