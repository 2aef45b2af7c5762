/**
 * What the Express host hands every React Router loader and action. Route modules import only
 * this type; the services themselves live in the host process, created once.
 */
import type { SignedInViewer } from "./accounts/sessions";
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
  /** The built-in stand-ins in use: every page says so (test payments charge no card; log-only mail is not sent). */
  testMode: { payments: boolean; mail: boolean };
  /** Pages count their views with no cookie (decision 060, VISIT_COUNTS). */
  countVisits: boolean;
}

/** The alert banner's message on a page a form's action answered with (the spec's Alert: type and message). */
export interface FormAnswer {
  alert: { type: "success" | "danger" | "warning" | "info"; message: string };
  clearAfterMs?: number;
}

export interface MuseumLoadContext {
  services: Services;
  viewer: SignedInViewer | null;
  requestId: string;
  /** The request's CSP nonce; empty when the page is rendered for the anonymous page cache. */
  cspNonce: string;
  /** Set by a loader that showed its page without some data: such a page is never cached. */
  renderState: {
    loadFailed: boolean;
    /** The address built from the records a page shows (set by its loader); the page cache keeps only that one. */
    pagePath?: string;
    /** Set when a loader or action failed because the database could not answer: the host makes its 500 a 503. */
    databaseUnavailable?: boolean;
  };
  logger: Logger;
  settings: PublicSettings;
  /** Client address (trusted proxy aware), for rate limits. */
  clientIp: string;
  /** Set when this client is over its rate limit for a page action: the action answers this message and does nothing. */
  rateLimited: string | null;
  /** Set by the host when the page must be the error page with this status (the database cannot answer: 503). */
  hostError: number | null;
  /**
   * Set by a page's action for the page it answers with when the browser posted the form itself
   * (no script running yet, decision 036): the alert banner's message, shown from the first paint,
   * and how long it stays (counted from when the page is shown; none: until the page is left).
   */
  formAnswer?: FormAnswer;
}

declare module "react-router" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- module augmentation needs an interface
  interface AppLoadContext extends MuseumLoadContext {}
}
