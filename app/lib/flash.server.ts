/**
 * A one-time message carried across a redirect in a short-lived cookie (the logout alert shown
 * on /login). Only known keys are accepted, so the cookie cannot inject text. Written like every
 * cookie of the site (Secure under https).
 */
import { siteCookie } from "../../server/accounts/session-cookie.server";

const FLASH_COOKIE = "museum_flash";
export type FlashKey = "logout";

export function flashCookie(key: FlashKey, publicUrl: string): string {
  return siteCookie(FLASH_COOKIE, key, 60, publicUrl);
}

export function readFlash(cookieHeader: string | null, publicUrl: string): { key: FlashKey | null; clear: string | null } {
  const m = new RegExp(`(?:^|;\\s*)${FLASH_COOKIE}=([a-z]+)`).exec(cookieHeader ?? "");
  const key = m?.[1] === "logout" ? "logout" : null;
  return { key, clear: m ? siteCookie(FLASH_COOKIE, "", 0, publicUrl) : null };
}
