/**
 * Every cookie the site sets, and the session's own life in the browser (decision 022): a
 * session starts (and the one the request came with ends, so no session id survives a sign-in),
 * or ends, with its Set-Cookie, here and nowhere else. Every cookie is HttpOnly, SameSite=Lax,
 * Path=/, and Secure when the site is served over https (`PUBLIC_URL`); over http (local
 * development) it is not, or the browser would drop it.
 */
import { requestSessionToken } from "./request-auth";
import { SESSION_COOKIE, SESSION_DAYS, type SessionStore } from "./sessions";

// Reading the session from a request lives with the request's authentication (request-auth.ts).
export { readCookie, sessionTokenFrom } from "./request-auth";

/** A cookie of this site (`maxAgeSeconds` 0 deletes it): Secure exactly when `publicUrl` is https. */
export function siteCookie(name: string, value: string, maxAgeSeconds: number, publicUrl: string): string {
  const secure = new URL(publicUrl).protocol === "https:";
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? "; Secure" : ""}`;
}

/** The request headers a session is read from: the cookie for browsers, `Authorization: Bearer` for other clients. */
export interface SessionCarrier {
  cookie?: string | null;
  authorization?: string | null;
}

/**
 * The session's Set-Cookie for one site. Every adapter (the login, sign-up, gift and logout
 * pages, the accounts API, password reset, account deletion) starts and ends sessions through it.
 */
export function sessionCookies(sessions: Pick<SessionStore, "destroy" | "end">, publicUrl: string) {
  const cleared = () => siteCookie(SESSION_COOKIE, "", 0, publicUrl);
  return {
    /** A new session (its token from the accounts service): the request's old one ends; the Set-Cookie of the new one. */
    async start(request: SessionCarrier, token: string): Promise<string> {
      const old = requestSessionToken(request.cookie, request.authorization);
      if (old && old !== token) await sessions.destroy(old);
      return siteCookie(SESSION_COOKIE, token, SESSION_DAYS * 86_400, publicUrl);
    },
    /** Ends the request's session, if any; the Set-Cookie that deletes it. */
    async end(request: SessionCarrier): Promise<string> {
      const token = requestSessionToken(request.cookie, request.authorization);
      if (token) await sessions.end(token);
      return cleared();
    },
    /** The Set-Cookie that deletes the session, when the service has ended it already (password reset, deleted account). */
    cleared,
  };
}
