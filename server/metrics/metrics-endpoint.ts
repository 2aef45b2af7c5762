/**
 * GET /metrics (decision 021): mounted only when METRICS_TOKEN is set (otherwise the address is
 * an ordinary 404), and answered only with `Authorization: Bearer <token>`; the token is compared
 * in constant time (digests of equal length), so its length and prefix do not leak.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { RequestHandler } from "express";
import { registry } from "./metrics";
import { metricsText } from "./cluster-metrics";

const digest = (value: string) => createHash("sha256").update(value).digest();

export function metricsEndpoint(token: string): RequestHandler {
  const expected = digest(token);
  return (req, res, next) => {
    res.setHeader("Cache-Control", "no-store");
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
    if (!match || !timingSafeEqual(digest(match[1]), expected)) {
      res.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
      res.status(401).type("text/plain").send("Metrics need the header Authorization: Bearer <METRICS_TOKEN>.");
      return;
    }
    metricsText().then((text) => res.type(registry.contentType).send(text), next);
  };
}
