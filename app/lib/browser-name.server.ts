/** A browser in words, for lists of sessions and a passkey's default name. */
import Bowser from "bowser";

/** "Chrome 140 on Linux", from a session's User-Agent. */
export function browserName(userAgent: string | null): string {
  if (!userAgent) return "Unknown browser";
  const { browser, os } = Bowser.parse(userAgent);
  const name = [browser.name, browser.version?.split(".")[0]].filter(Boolean).join(" ") || "Unknown browser";
  return os.name ? `${name} on ${os.name}` : name;
}

