/**
 * A one-time message carried across a redirect in a short-lived cookie (the logout alert shown
 * on /login). Only known keys are accepted, so the cookie cannot inject text.
 */
const FLASH_COOKIE = "museum_flash";
export type FlashKey = "logout";

export function flashCookie(key: FlashKey): string {
  return `${FLASH_COOKIE}=${key}; Path=/; HttpOnly; SameSite=Lax; Max-Age=60`;
}

export function readFlash(cookieHeader: string | null): { key: FlashKey | null; clear: string | null } {
  const m = new RegExp(`(?:^|;\\s*)${FLASH_COOKIE}=([a-z]+)`).exec(cookieHeader ?? "");
  const key = m?.[1] === "logout" ? "logout" : null;
  return { key, clear: m ? `${FLASH_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0` : null };
}
