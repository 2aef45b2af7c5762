/**
 * GET /api/search?q=&team=&category=&decade=&type=&favoriteStory=&sort=&page= and
 * GET /api/search/suggest?q=: the same rules as the /search page, through the same
 * service. Visitors are searched on titles, names, teams and categories only; members on the
 * texts too, with snippets. A malformed or unknown parameter answers 400; answers are not cached
 * (the host sends every /api answer `private, no-cache`).
 */
import { Router, type Response } from "express";
import { canSeeMemberContent, type Viewer } from "../../app/shared/access";
import { searchRequestSchema, suggestRequestSchema } from "../../app/shared/search-schemas";
import type { Search } from "../search/search-service";
import { sendError, zodMessage } from "./http-errors";

function viewerOf(res: Response): Viewer | null {
  return (res.locals.viewer as Viewer | null | undefined) ?? null;
}

export function createSearchApi(search: Search): Router {
  const api = Router();

  api.get("/search", async (req, res) => {
    const parsed = searchRequestSchema.safeParse(req.query);
    if (!parsed.success) return sendError(res, 400, zodMessage(parsed.error));
    res.json(await search.search(parsed.data, canSeeMemberContent(viewerOf(res))));
  });

  api.get("/search/suggest", async (req, res) => {
    const parsed = suggestRequestSchema.safeParse(req.query);
    if (!parsed.success) return sendError(res, 400, zodMessage(parsed.error));
    res.json(await search.suggest(parsed.data.q));
  });

  return api;
}
