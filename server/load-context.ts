/**
 * What the Express host hands every React Router loader and action. Route modules import only
 * this type; the services themselves live in the host process, created once.
 */
import type { Viewer } from "../app/lib/access";
import type { Logger } from "./logger";
import type { Services } from "./services";

export interface PublicSettings {
  shopUrl: string;
  publicUrl: string;
  ticketPriceCents: number;
  ticketDays: number;
  contactEmail: string;
  /** reCAPTCHA v3 site key, null when the bot check runs without it (honeypot + rate limit). */
  recaptchaSiteKey: string | null;
}

export interface MuseumLoadContext {
  services: Services;
  viewer: (Viewer & { userId: string }) | null;
  requestId: string;
  /** The request's CSP nonce; empty when the page is rendered for the anonymous page cache. */
  cspNonce: string;
  /** Set by a loader that showed its page without some data: such a page is never cached. */
  renderState: { loadFailed: boolean };
  logger: Logger;
  settings: PublicSettings;
  /** Client address (trusted proxy aware), for rate limits. */
  clientIp: string;
}

declare module "react-router" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- module augmentation needs an interface
  interface AppLoadContext extends MuseumLoadContext {}
}
