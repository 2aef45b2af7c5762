/**
 * JSON answers of collection reads. When the catalog keeps its reads in memory (decision 006),
 * the same result object answers many requests, so it is serialized and compressed once per
 * object (a WeakMap forgets it with the object) and sent with an ETag. Without that cache every
 * read is a new object and Express's res.json and the compression middleware do the work.
 */
import type { Request, Response } from "express";
import { precompress, sendPrecompressed, type Precompressed } from "../http/precompressed";

export type SendJson = (req: Request, res: Response, value: object) => Promise<void>;

export function collectionJson({ resultsAreShared }: { resultsAreShared: boolean }): SendJson {
  if (!resultsAreShared) {
    return async (_req, res, value) => {
      res.json(value);
    };
  }
  const encoded = new WeakMap<object, Promise<Precompressed>>();
  return async (req, res, value) => {
    let content = encoded.get(value);
    if (!content) {
      content = precompress(Buffer.from(JSON.stringify(value)), { shared: true });
      encoded.set(value, content);
      content.catch(() => encoded.delete(value));
    }
    const ready = await content;
    res.setHeader("Content-Type", "application/json; charset=utf-8");
    sendPrecompressed(req, res, ready, { etag: true });
  };
}
