/**
 * Refuses state-changing requests sent by another site's pages (CSRF): a browser names the
 * page's origin in Origin or Sec-Fetch-Site; clients that send neither (curl, apps) pass.
 */
import type { RequestHandler } from "express";
import { SERVER_MESSAGES } from "../../app/shared/messages";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

export function sameOriginOnly(publicUrl: string, exemptPaths: string[] = []): RequestHandler {
  const allowed = new URL(publicUrl).origin;
  return (req, res, next) => {
    if (SAFE.has(req.method) || exemptPaths.includes(req.path)) return next();
    const site = req.get("sec-fetch-site");
    // A browser that sends Fetch Metadata says itself whether the page was ours. (A plain form
    // post from our page carries our Origin too, under Referrer-Policy: same-origin; it carried
    // `Origin: null` under no-referrer, which React Router's own check refuses.)
    if (site === "same-origin") return next();
    const origin = req.get("origin");
    const own = `${req.protocol}://${req.get("host")}`;
    const crossSite = site === "cross-site" || (origin !== undefined && origin !== "null" && origin !== allowed && origin !== own) || origin === "null";
    if (!crossSite) return next();
    res.status(403);
    if (req.path.startsWith("/api/") || req.accepts(["json", "html"]) === "json") {
      res.json({ message: SERVER_MESSAGES.crossOrigin, success: false });
    } else {
      res.type("text/plain").send(SERVER_MESSAGES.crossOrigin);
    }
  };
}
