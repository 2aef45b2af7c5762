/**
 * The data calls of spec section 7 (all GET). Ids are UUIDs: a malformed id or query answers
 * 400, an unknown id 404. The fixed Authorization header the old client sent is accepted and
 * ignored; access comes from the session alone.
 */
import { Router, type Request, type Response } from "express";
import { z } from "zod";
import type { Viewer } from "../../app/shared/access";
import { canSeeMemberContent } from "../../app/shared/access";
import type { Catalog } from "../catalog/catalog-service";
import type { SendJson } from "./collection-json";
import { sendError, zodMessage } from "./http-errors";

const id = z.uuid({ message: "is not a valid id" });
const flag = z.enum(["true", "false"], { message: "must be true or false" }).transform((v) => v === "true");
const exhibitQuery = z
  .object({ team: id.optional(), category: id.optional(), active: flag.optional(), favoriteStory: flag.optional() })
  .strict();

function viewerOf(res: Response): Viewer | null {
  return (res.locals.viewer as Viewer | null | undefined) ?? null;
}

/** `sendJson` answers with a collection read (see collection-json.ts). */
export function createCatalogApi(catalog: Catalog, sendJson: SendJson): Router {
  const api = Router();

  /** Parses `req.params[name]` as an id, or answers 400 and returns null. */
  function idParam(req: Request, res: Response, name: string): string | null {
    const parsed = id.safeParse(req.params[name]);
    if (parsed.success) return parsed.data;
    sendError(res, 400, `${name}: ${parsed.error.issues[0]?.message}`);
    return null;
  }

  function rejectQuery(req: Request, res: Response): boolean {
    if (Object.keys(req.query).length === 0) return false;
    sendError(res, 400, `Unknown query parameter: ${Object.keys(req.query)[0]}`);
    return true;
  }

  api.get("/teams", async (req, res) => {
    if (rejectQuery(req, res)) return;
    await sendJson(req, res, await catalog.listTeams());
  });

  api.get("/teams/:id", async (req, res) => {
    const teamId = idParam(req, res, "id");
    if (!teamId) return;
    const team = await catalog.getTeam(teamId);
    if (!team) return sendError(res, 404, "Team not found");
    await sendJson(req, res, team);
  });

  api.get("/categories", async (req, res) => {
    if (rejectQuery(req, res)) return;
    await sendJson(req, res, await catalog.listCategories());
  });

  api.get("/categories/:id", async (req, res) => {
    const categoryId = idParam(req, res, "id");
    if (!categoryId) return;
    const category = await catalog.getCategory(categoryId);
    if (!category) return sendError(res, 404, "Category not found");
    await sendJson(req, res, category);
  });

  api.get("/exhibits", async (req, res) => {
    const parsed = exhibitQuery.safeParse(req.query);
    if (!parsed.success) return sendError(res, 400, zodMessage(parsed.error));
    await sendJson(req, res, await catalog.listExhibits(parsed.data, canSeeMemberContent(viewerOf(res))));
  });

  api.get("/exhibits/:id", async (req, res) => {
    const exhibitId = idParam(req, res, "id");
    if (!exhibitId) return;
    const exhibit = await catalog.getExhibit(exhibitId, canSeeMemberContent(viewerOf(res)));
    if (!exhibit) return sendError(res, 404, "Exhibit not found");
    await sendJson(req, res, exhibit);
  });

  api.get("/enshrinees", async (req, res) => {
    if (rejectQuery(req, res)) return;
    await sendJson(req, res, await catalog.listEnshrinees());
  });

  api.get("/enshrinees/:enshrineeID", async (req, res) => {
    const enshrineeId = idParam(req, res, "enshrineeID");
    if (!enshrineeId) return;
    const enshrinee = await catalog.getEnshrinee(enshrineeId, canSeeMemberContent(viewerOf(res)));
    if (!enshrinee) return sendError(res, 404, "Enshrinee not found");
    await sendJson(req, res, enshrinee);
  });

  return api;
}
