/**
 * POST /api/visits `{ path, search?, results? }`: a page shown in a browser counts one view
 * (decision 060). Sent by the page itself (app/lib/visit-beacon.ts), without a cookie; answered
 * 204 with nothing to keep. Not counted: a user agent that says it is a bot, crawler or spider
 * (isbot), a prefetch or prerender (`Sec-Purpose`/`Purpose`), and any address that is no public
 * page of the site (a sign-in or account page, the console, an unknown address). All of these
 * answer 204 like a counted view: a beacon's answer carries nothing, and a body its page never
 * reads would stay pending in the browser (Chromium keeps such a request open, and a test
 * waiting for the network to be idle waits for ever). The route's own tier limits how many a client sends (in each process's
 * memory, never in the database: server/security/limits.ts).
 */
import { Router } from "express";
import { isbot } from "isbot";
import { z } from "zod";
import type { VisitCounter } from "../visits/visit-counter";
import { sendError, zodMessage } from "./http-errors";

const reportSchema = z.object({
  path: z.string().max(400),
  search: z.string().max(1000).optional(),
  results: z.number().int().min(0).optional(),
});

/** A prefetch or prerender is no view (Chromium: `Sec-Purpose: prefetch`, older: `Purpose: prefetch`). */
const isPrefetch = (purpose: string | undefined) => purpose !== undefined && /prefetch|prerender/i.test(purpose);

export function createVisitsApi(visits: VisitCounter | null): Router {
  const api = Router();
  api.post("/visits", async (req, res) => {
    res.setHeader("Cache-Control", "no-store");
    const agent = req.get("user-agent") ?? "";
    if (!visits || agent === "" || isbot(agent) || isPrefetch(req.get("sec-purpose")) || isPrefetch(req.get("purpose"))) return void res.status(204).end();
    const report = reportSchema.safeParse(req.body);
    if (!report.success) return sendError(res, 400, zodMessage(report.error));
    await visits.view(report.data);
    res.status(204).end();
  });
  return api;
}
