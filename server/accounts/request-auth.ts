/** The session token of a request: the cookie for browsers, or `Authorization: Bearer` for other clients. */
import { sessionTokenFrom } from "./session-cookie.server";

export function requestSessionToken(cookieHeader: string | null | undefined, authorization: string | null | undefined): string | undefined {
  const cookie = sessionTokenFrom(cookieHeader);
  if (cookie) return cookie;
  const m = /^Bearer\s+([A-Za-z0-9_-]{20,200})$/.exec(authorization?.trim() ?? "");
  return m?.[1];
}
