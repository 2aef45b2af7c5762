/**
 * The one table of request-body limits; each route names its rule in its policy
 * (app/shared/route-policy.ts), resolved from the route that matched. Every request that carries
 * a body is held to its route's rule before anything reads the body: a declared Content-Length over the limit is answered 413 at
 * once, and a streamed (chunked) body is counted while it arrives and cut off at the limit by
 * the parser that reads it (body-parser for the API, the page handler for form posts).
 */
import type { Request, RequestHandler, Response } from "express";
import { HOST_MESSAGES } from "../../app/shared/messages";
import type { BodyRuleName } from "../../app/shared/route-policy";
import { routeOf } from "./route-policy";

export interface BodyRule {
  /** What the rule covers, for the error message and the docs. */
  name: BodyRuleName;
  /** Largest body accepted, in bytes. */
  maxBytes: number;
  /** Content types accepted (the part before any `;`). */
  types: readonly string[];
  /**
   * Handed to the page as a stream cut off at `maxBytes` instead of a buffered body (file
   * uploads, parsed part by part by the route's action): `limitedBodyStream`.
   */
  stream?: boolean;
  /** A smaller limit for some of its types (an edit form with an image: its url-encoded posts stay page-form sized). */
  maxBytesByType?: Readonly<Record<string, number>>;
}

const KB = 1024;

/** The rules by name; each route names its own in app/shared/route-policy.ts. */
export const BODY_LIMITS: Readonly<Record<BodyRuleName, BodyRule>> = {
  // Console uploads (decision 015): exhibit photos (up to 12 files of at most 15 MB each),
  // streamed to the action, which checks each file by decoding it. (Team logos, banner images and
  // portraits are uploaded inside their edit forms: the next rule, decision 039.)
  "console photo upload": { name: "console photo upload", maxBytes: 64 * 1024 * KB, types: ["multipart/form-data"], stream: true },
  // A console edit form that carries its own image file (a team's logo, a banner slide's image,
  // an enshrinee's portrait; decision 039): multipart like the uploads above, streamed, one file checked by decoding; the
  // page's other forms (delete, its confirmation) post url-encoded, held to the page-form size.
  "console form with an image": {
    name: "console form with an image",
    maxBytes: 64 * 1024 * KB,
    types: ["multipart/form-data", "application/x-www-form-urlencoded"],
    stream: true,
    maxBytesByType: { "application/x-www-form-urlencoded": 64 * KB },
  },
  // The collection's CSV import (decision 034): a file of at most 5 MB, or the same file carried
  // again as base64 (a third larger) by the dry run's confirm form.
  "console CSV import": { name: "console CSV import", maxBytes: 8 * 1024 * KB, types: ["multipart/form-data"], stream: true },
  // Stripe signs the raw body; its events are a few kilobytes.
  "Stripe webhook": { name: "Stripe webhook", maxBytes: 512 * KB, types: ["application/json"] },
  "JSON API": { name: "JSON API", maxBytes: 64 * KB, types: ["application/json"] },
  // The page-view count (decision 060): JSON sent as text, so the inline beacon carries no header.
  "visit count": { name: "visit count", maxBytes: 4 * KB, types: ["application/json", "text/plain"] },
  // The reminders' one-click unsubscribe (RFC 8058): mail providers post `List-Unsubscribe=One-Click`
  // as multipart/form-data (what the RFC asks of them) or urlencoded; a few hundred bytes.
  "one-click unsubscribe": { name: "one-click unsubscribe", maxBytes: 8 * KB, types: ["application/x-www-form-urlencoded", "multipart/form-data"] },
  // Page forms: the longest field is a 5,000-character contact message (at most ~45 KB encoded).
  // Pages that take files name the larger multipart rule above.
  "page form": { name: "page form", maxBytes: 64 * KB, types: ["application/x-www-form-urlencoded"] },
};

/** The body rule of the route this request runs (resolved by server/http/route-policy.ts). */
export function bodyRuleOf(res: Response): BodyRule {
  return BODY_LIMITS[routeOf(res).body];
}

/** The largest body `rule` takes with this Content-Type. */
export function bodyLimitOf(rule: BodyRule, contentType: string | undefined): number {
  return rule.maxBytesByType?.[mediaType(contentType)] ?? rule.maxBytes;
}

export function formatBytes(bytes: number): string {
  return bytes >= 1024 * KB ? `${Math.round(bytes / (1024 * KB))} MB` : `${Math.round(bytes / KB)} KB`;
}

/** Whether a request carries a body (a Content-Length above 0 or a chunked transfer). */
export function hasBody(headers: { "content-length"?: string; "transfer-encoding"?: string }): boolean {
  const length = headers["content-length"];
  return headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0].trim().toLowerCase();
}

/**
 * Refuses, before the body is read: a declared length over the limit (413) and a content type
 * the address does not take (415). Answers are JSON under /api/ and plain text elsewhere.
 */
export const enforceBodyLimits: RequestHandler = (req, res, next) => {
  const rule = bodyRuleOf(res);
  const send = (status: number, message: string) => {
    res.setHeader("Connection", "close");
    if (routeOf(res).host) res.status(status).json({ message, success: false });
    else res.status(status).type("text/plain").send(message);
  };
  if (!hasBody(req.headers)) {
    // A page's action reads a form: a POST to it with no body and no form type (a probe, a
    // misconfigured client) is refused here rather than failing inside the action. The JSON API
    // takes a bodiless POST (a logout).
    if (req.method === "POST" && !routeOf(res).host && !rule.types.includes(mediaType(req.headers["content-type"]))) {
      return send(415, HOST_MESSAGES.unsupportedType(rule.types.join(" or ")));
    }
    return next();
  }
  const declared = Number(req.headers["content-length"]);
  const limit = bodyLimitOf(rule, req.headers["content-type"]);
  if (Number.isFinite(declared) && declared > limit) return send(413, HOST_MESSAGES.bodyTooLarge(formatBytes(limit)));
  if (!rule.types.includes(mediaType(req.headers["content-type"]))) {
    return send(415, HOST_MESSAGES.unsupportedType(rule.types.join(" or ")));
  }
  next();
};

/**
 * Reads the body of `req` into a Buffer, at most `rule.maxBytes`. Past the limit the answer is
 * 413 at once (with `Connection: close`), without waiting for the rest of the body, which Node
 * then discards: a client streaming gigabytes costs neither memory nor a held connection.
 * Resolves null when it has answered.
 */
export function readLimitedBody(req: Request, res: Response): Promise<Buffer | null> {
  const rule = bodyRuleOf(res);
  return new Promise((resolve, reject) => {
    const encoding = (req.headers["content-encoding"] ?? "identity").toLowerCase();
    if (encoding !== "identity") {
      res.status(415).type("text/plain").send(HOST_MESSAGES.unsupportedType("bodies without Content-Encoding"));
      return resolve(null);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (value: Buffer | null, error?: Error) => {
      if (done) return;
      done = true;
      req.off("data", onData).off("end", onEnd).off("error", onError).off("aborted", onAborted);
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= rule.maxBytes) return void chunks.push(chunk);
      res.setHeader("Connection", "close");
      const message = HOST_MESSAGES.bodyTooLarge(formatBytes(rule.maxBytes));
      if (routeOf(res).host) res.status(413).json({ message, success: false });
      else res.status(413).type("text/plain").send(message);
      req.pause();
      res.once("finish", () => req.socket?.destroySoon?.());
      finish(null);
    };
    const onEnd = () => finish(Buffer.concat(chunks, size));
    const onError = (error: Error) => finish(null, error);
    const onAborted = () => finish(null, Object.assign(new Error("request aborted"), { status: 400 }));
    req.on("data", onData).on("end", onEnd).on("error", onError).on("aborted", onAborted);
  });
}

/** Reads a body within its limit into `req.body` (a Buffer) for the next handler. */
export const readBody: RequestHandler = async (req, res, next) => {
  if (!hasBody(req.headers)) return next();
  try {
    const body = await readLimitedBody(req, res);
    if (body === null) return;
    req.body = body;
    next();
  } catch (error) {
    next(error);
  }
};

/** Reads a JSON body within its limit into `req.body`; 400 with a clear message when it is not JSON. */
export const readJsonBody: RequestHandler = async (req, res, next) => {
  if (!hasBody(req.headers)) return next();
  try {
    const body = await readLimitedBody(req, res);
    if (body === null) return;
    try {
      req.body = body.length === 0 ? {} : (JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body)) as unknown);
    } catch {
      res.status(400).json({ message: "The request body is not valid JSON.", success: false });
      return;
    }
    next();
  } catch (error) {
    next(error);
  }
};

/** Raised by `limitedBodyStream` when a streamed body passes its rule's limit. */
export class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError";
  constructor(readonly maxBytes: number) {
    super(HOST_MESSAGES.bodyTooLarge(formatBytes(maxBytes)));
  }
}

/**
 * The body of `req` as a web stream that errors with BodyTooLargeError the moment it passes
 * `maxBytes` (and stops reading the socket), for rules marked `stream`: the route parses it
 * part by part and nothing is buffered whole. Pulled on demand, so a slow consumer holds the
 * client back instead of filling memory.
 */
export function limitedBodyStream(req: Request, maxBytes: number): ReadableStream<Uint8Array> {
  let size = 0;
  const iterator = req[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await iterator.next();
        if (done) return controller.close();
        size += value.length;
        if (size > maxBytes) {
          controller.error(new BodyTooLargeError(maxBytes));
          req.unpipe();
          req.pause();
          return;
        }
        controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
