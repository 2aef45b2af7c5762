/** Reading and writing the session cookie (httpOnly, SameSite=Lax, Secure over https). */
import { SESSION_COOKIE, SESSION_DAYS } from "./sessions";

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

export function sessionCookie(token: string, secure: boolean): string {
  const maxAge = SESSION_DAYS * 86_400;
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? "; Secure" : ""}`;
}
