/**
 * The one table of request-body limits. Every request that carries a body is matched against it
 * before anything reads the body: a declared Content-Length over the limit is answered 413 at
 * once, and a streamed (chunked) body is counted while it arrives and cut off at the limit by
 * the parser that reads it (body-parser for the API, the page handler for form posts).
 */
import type { RequestHandler } from "express";
import { HOST_MESSAGES } from "../../app/lib/messages";

export interface BodyRule {
  /** What the rule covers, for the error message and the docs. */
  name: string;
  matches: (path: string) => boolean;
  /** Largest body accepted, in bytes. */
  maxBytes: number;
  /** Content types accepted (the part before any `;`). */
  types: readonly string[];
}

const KB = 1024;

/** First match wins. */
export const BODY_LIMITS: readonly BodyRule[] = [
  // Stripe signs the raw body; its events are a few kilobytes.
  { name: "Stripe webhook", matches: (p) => p === "/api/stripe/webhook", maxBytes: 512 * KB, types: ["application/json"] },
  { name: "JSON API", matches: (p) => p.startsWith("/api/"), maxBytes: 64 * KB, types: ["application/json"] },
  // Page forms: the longest field is a 5,000-character contact message (at most ~45 KB encoded).
  // No page takes files yet; an upload route gets its own, larger multipart rule above this one.
  { name: "page form", matches: () => true, maxBytes: 64 * KB, types: ["application/x-www-form-urlencoded"] },
];

export function bodyRuleFor(path: string): BodyRule {
  return BODY_LIMITS.find((r) => r.matches(path)) ?? BODY_LIMITS[BODY_LIMITS.length - 1];
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
  if (!hasBody(req.headers)) return next();
  const rule = bodyRuleFor(req.path);
  const send = (status: number, message: string) => {
    res.setHeader("Connection", "close");
    if (req.path.startsWith("/api/")) res.status(status).json({ message, success: false });
    else res.status(status).type("text/plain").send(message);
  };
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > rule.maxBytes) return send(413, HOST_MESSAGES.bodyTooLarge(formatBytes(rule.maxBytes)));
  if (!rule.types.includes(mediaType(req.headers["content-type"]))) {
    return send(415, HOST_MESSAGES.unsupportedType(rule.types.join(" or ")));
  }
  next();
};
