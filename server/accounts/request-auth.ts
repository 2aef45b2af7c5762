/** The session token of a request: the cookie for browsers, or `Authorization: Bearer` for other clients. */
import { SESSION_COOKIE } from "./sessions";

export function readCookie(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export function sessionTokenFrom(cookieHeader: string | null | undefined): string | undefined {
  return readCookie(cookieHeader, SESSION_COOKIE);
}

export function requestSessionToken(cookieHeader: string | null | undefined, authorization: string | null | undefined): string | undefined {
  // Most visitors send neither: no parsing, no regex (the stored pages' fast paths ask on every request).
  if (!cookieHeader && !authorization) return undefined;
  const cookie = sessionTokenFrom(cookieHeader);
  if (cookie) return cookie;
  const m = /^Bearer\s+([A-Za-z0-9_-]{20,200})$/.exec(authorization?.trim() ?? "");
  return m?.[1];
}
