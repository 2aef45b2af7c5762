/**
 * GET /images/view/<file>?height=N: serves cached renditions from the image service with
 * content negotiation (Vary: Accept), strong ETags and 304s, and keeps member-only images
 * (exhibit photos) behind a valid ticket. N must be one of IMAGE_HEIGHTS (app/shared/images.ts).
 * Client mistakes get 4xx JSON, never a 500; a full render queue answers 503 with Retry-After.
 */
import { pipeline } from "node:stream/promises";
import { Router, type ErrorRequestHandler, type Request, type Response } from "express";
import { etagMatches } from "../http/etag";
import { BUSY_RETRY_AFTER_SECONDS, IMAGE_NOT_FOUND_MESSAGE, ImageRequestError, validateImageFile, validateImageHeight, type ImageService } from "./image-service";
import { parseShareCardPath, type ShareCards } from "./share-cards";
import { carriesSession } from "../http/shared-caching";

export const MEMBER_ONLY_IMAGE_MESSAGE = "A museum ticket is required to view this image.";

function sendJsonError(res: Response, status: number, message: string, cacheControl = "no-store") {
  res.setHeader("Cache-Control", cacheControl);
  res.status(status).json({ message });
}

/** The query's height as a number; anything that is not plain digits becomes NaN (rejected later). */
function parseHeight(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  return typeof value === "string" && /^[0-9]{1,6}$/.test(value) ? Number(value) : Number.NaN;
}

/** Express 5 hands a named wildcard over as decoded path segments. */
function joinSegments(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join("/");
  return typeof value === "string" ? value : "";
}

export function createImageRouter(o: {
  images: ImageService;
  isMemberOnly: (file: string) => boolean;
  isMember: (req: Request) => Promise<boolean>;
  /**
   * Whether `file` is hidden from this request: a photo of a record that is not public (a draft,
   * scheduled for later, in the trash) for anyone but staff. Answered 404, before the ticket's
   * 403, so nobody learns that the file exists (decision 047). Absent: nothing is hidden.
   */
  isHidden?: (req: Request, file: string) => Promise<boolean>;
  /** Share cards (decision 027): GET /images/share/<kind>/<id>.png, public PNGs of 1200x630. */
  shareCards?: ShareCards;
}): Router {
  const router = Router();

  const shareCards = o.shareCards;
  if (shareCards) {
    router.get("/images/share/:kind/*rest", async (req, res, next) => {
      try {
        const card = await shareCards.open(parseShareCardPath(req.params.kind, joinSegments(req.params.rest)));
        // The address stays when the record changes (the card does not): revalidate after an hour.
        res.setHeader("Cache-Control", "public, max-age=3600");
        res.setHeader("ETag", card.etag);
        if (etagMatches(req.get("if-none-match"), card.etag)) {
          res.status(304).end();
          return;
        }
        res.status(200).type("image/png").setHeader("Content-Length", String(card.body.length));
        res.end(req.method === "HEAD" ? undefined : card.body);
      } catch (error) {
        if (error instanceof ImageRequestError) {
          if (error.status === 503) res.setHeader("Retry-After", String(BUSY_RETRY_AFTER_SECONDS));
          sendJsonError(res, error.status, error.message);
          return;
        }
        next(error);
      }
    });
  }

  router.get("/images/view/*file", async (req, res, next) => {
    try {
      const file = validateImageFile(joinSegments(req.params.file));
      const height = validateImageHeight(parseHeight(req.query.height));

      // Gate before touching the disk: a visitor learns nothing about member-only files.
      if (o.isHidden && (await o.isHidden(req, file))) {
        sendJsonError(res, 404, IMAGE_NOT_FOUND_MESSAGE, "private, no-store");
        return;
      }
      const memberOnly = o.isMemberOnly(file);
      if (memberOnly && !(await o.isMember(req))) {
        sendJsonError(res, 403, MEMBER_ONLY_IMAGE_MESSAGE, "private, no-store");
        return;
      }

      const rendition = await o.images.openRendition(file, height, req.get("accept"), (etag) =>
        etagMatches(req.get("if-none-match"), etag),
      );
      // A signed-in request may see photos visitors may not (staff: drafts, the trash): its answer
      // is its own, so a cache in front never hands it to a visitor (decision 054).
      res.setHeader("Cache-Control", memberOnly || carriesSession(req) ? "private, max-age=3600" : "public, max-age=86400");
      res.vary("Accept");
      res.setHeader("ETag", rendition.etag);
      // MISS marks the expensive answers (a render), e.g. for a limiter that counts only those.
      res.setHeader("X-Cache", rendition.cache);
      if (!rendition.body) {
        res.status(304).end();
        return;
      }

      const { handle, size } = rendition.body;
      res.status(200);
      res.setHeader("Content-Type", rendition.contentType);
      res.setHeader("Content-Length", String(size));
      if (req.method === "HEAD") {
        await handle.close();
        res.end();
        return;
      }
      // The stream owns the handle from here and closes it when done or destroyed. The file may
      // be evicted from the cache meanwhile: an open file stays readable after it is unlinked.
      await pipeline(handle.createReadStream(), res);
    } catch (error) {
      if (error instanceof ImageRequestError) {
        if (res.headersSent) return;
        if (error.status === 503) res.setHeader("Retry-After", String(BUSY_RETRY_AFTER_SECONDS));
        sendJsonError(res, error.status, error.message);
        return;
      }
      // Headers already out means the client went away mid-stream: nothing left to answer.
      if (res.headersSent) {
        res.destroy();
        return;
      }
      next(error);
    }
  });

  // A malformed percent-escape in the path fails while Express decodes the parameters.
  const badEncoding: ErrorRequestHandler = (err: unknown, _req, res, next) => {
    const status = typeof err === "object" && err !== null && "status" in err ? err.status : undefined;
    if (status === 400 && !res.headersSent) return sendJsonError(res, 400, "Invalid image path: bad URL encoding.");
    next(err);
  };
  router.use("/images/view", badEncoding);

  return router;
}
