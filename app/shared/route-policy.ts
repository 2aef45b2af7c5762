/**
 * Each route's request policy, keyed by the route's id (decision 022): the rate-limit tier its
 * action (and, for a few, its page) counts against, the body its action takes, whether the page
 * cache may store it, and whether it opens its own browsing context group
 * (Cross-Origin-Opener-Policy). The host resolves the route a request runs (React Router's
 * `matchRoutes` for pages, the Express patterns below for the JSON API) once, early, and every
 * check reads the policy of that route: no spelling of a path (case, trailing slash, percent
 * encoding, `.data`) runs a route without its policy.
 *
 * Every route of app/routes.ts must have an entry: the server refuses to start without one, and
 * tests/integration/route-resolver.test.ts names the missing id. Tier and body names are defined with
 * their figures in server/security/limits.ts and server/http/body-limits.ts.
 */

/** The host's rate-limit tiers (figures in server/security/limits.ts). */
export type RateTierName = "login" | "resetRequest" | "resetUse" | "forms" | "writes" | "images" | "search" | "visits";

/** The host's body rules (figures in server/http/body-limits.ts). */
export type BodyRuleName = "page form" | "console photo upload" | "console form with an image" | "console CSV import" | "one-click unsubscribe" | "JSON API" | "visit count" | "Stripe webhook";

export interface RoutePolicy {
  /** Tier a request that changes state (POST, an action) counts against; default `writes`; null: none (signed, retried by the sender). */
  write?: RateTierName | null;
  /** Tier a GET/HEAD counts against; default none. */
  read?: RateTierName;
  /** The body the route takes; default `page form` for pages, `JSON API` for the API. */
  body?: BodyRuleName;
  /** Rendered once per access tier and stored by the page cache (decisions 008, 013). */
  cached?: boolean;
  /** A visitor's answer to a GET is every visitor's: a cache in front may keep it (decision 054). */
  shared?: boolean;
  /** Cross-Origin-Opener-Policy: same-origin (a password, a card, an emailed token or personal data is typed or shown). */
  isolated?: boolean;
}

/** A page every visitor sees alike: stored by the page cache. */
const COLLECTION: RoutePolicy = { cached: true, shared: true };
/** The collection's data for programs: the same for every visitor. */
const COLLECTION_DATA: RoutePolicy = { shared: true };
/** A page with a form that checks a password: the login tier, its own browsing context group. */
const PASSWORD_FORM: RoutePolicy = { write: "login", isolated: true };
/** A page of one's own account, a payment or a token from an email. */
const PRIVATE: RoutePolicy = { isolated: true };
/** The staff console (decision 015): every page is private. */
const CONSOLE: RoutePolicy = { isolated: true };

/** Pages, by React Router route id (app/routes.ts). */
export const PAGE_POLICIES: Record<string, RoutePolicy> = {
  root: {},
  "routes/home": COLLECTION,
  "routes/team": COLLECTION,
  "routes/category": COLLECTION,
  "routes/exhibit": COLLECTION,
  "routes/enshrinees": COLLECTION,
  "routes/enshrinee": COLLECTION,
  "routes/enshrinee-exhibit": COLLECTION,
  "routes/favorite-stories": COLLECTION,
  "routes/favorite-story-exhibit": COLLECTION,
  // Searches cost more than a stored page.
  "routes/search": { read: "search", shared: true },
  "routes/about": COLLECTION,
  "routes/contact": { write: "forms" },
  "routes/subscribe": { write: "forms" },
  "routes/terms": COLLECTION,
  "routes/privacy": COLLECTION,
  "routes/admission": PRIVATE,
  "routes/payment": PRIVATE,
  "routes/gift": { write: "forms" },
  "routes/gift-sent": {},
  "routes/gift-pay": { write: "forms", isolated: true },
  // Signing in or up on the redeem page is a password guess like a login.
  "routes/gift-redeem": PASSWORD_FORM,
  "routes/login": PASSWORD_FORM,
  // A staff sign-in's second step (decision 055): codes are guesses like passwords.
  "routes/login-verify": PASSWORD_FORM,
  // A passkey's ceremony: a sign-in (and a member's password before adding one) like a login.
  "routes/login-passkey": PASSWORD_FORM,
  "routes/logout": PRIVATE,
  // Asking for a reset link and using one count apart: asking twice leaves the link usable.
  "routes/password-request": { write: "resetRequest", isolated: true },
  "routes/password-reset": { write: "resetUse", isolated: true },
  "routes/account": PRIVATE,
  "routes/account-receipt": PRIVATE,
  "routes/account-name": PRIVATE,
  // The account's own forms that check the current password.
  "routes/account-email": PASSWORD_FORM,
  "routes/account-email-confirm": PRIVATE,
  "routes/staff-invitation": PASSWORD_FORM,
  "routes/account-password": PASSWORD_FORM,
  "routes/account-data": PRIVATE,
  "routes/account-delete": PASSWORD_FORM,
  "routes/account-deleted": PRIVATE,
  "routes/account-reminders": PRIVATE,
  // RFC 8058 one-click unsubscribe: mail providers post multipart or urlencoded.
  "routes/email-unsubscribe": { body: "one-click unsubscribe", isolated: true },
  "routes/sitemap": COLLECTION,
  "routes/robots": COLLECTION,
  "routes/error-probe": {},
  "routes/admin/layout": CONSOLE,
  "routes/admin/dashboard": CONSOLE,
  "routes/admin/overview-export": CONSOLE,
  // The console's password check before sensitive actions is a password guess like a login.
  "routes/admin/confirm-password": PASSWORD_FORM,
  // "Stay signed in" of the session clock: a request that counts as activity.
  "routes/admin/stay-signed-in": CONSOLE,
  // One's own second factors and sessions (decision 055): its forms check codes.
  "routes/admin/security": { ...CONSOLE, write: "login" },
  "routes/admin/staff": CONSOLE,
  "routes/admin/audit": CONSOLE,
  "routes/admin/teams": CONSOLE,
  // The team form carries its logo file (decision 039): multipart, streamed, checked by decoding.
  "routes/admin/team-edit": { ...CONSOLE, body: "console form with an image" },
  "routes/admin/team-preview": CONSOLE,
  "routes/admin/team-version": CONSOLE,
  "routes/admin/categories": CONSOLE,
  "routes/admin/category-edit": CONSOLE,
  "routes/admin/category-preview": CONSOLE,
  "routes/admin/category-version": CONSOLE,
  "routes/admin/exhibits": CONSOLE,
  "routes/admin/exhibit-edit": CONSOLE,
  "routes/admin/exhibit-photos": CONSOLE,
  // Uploads are streamed to the action, which checks each file by decoding it.
  "routes/admin/exhibit-photos-upload": { ...CONSOLE, body: "console photo upload" },
  "routes/admin/exhibit-preview": CONSOLE,
  "routes/admin/exhibit-version": CONSOLE,
  // CSV import (decision 034): a file of up to 5 MB, then the same file again (base64) to confirm.
  "routes/admin/exhibit-import": { ...CONSOLE, body: "console CSV import" },
  "routes/admin/exhibit-export": CONSOLE,
  "routes/admin/enshrinees": CONSOLE,
  // The enshrinee form carries the portrait file (decision 039).
  "routes/admin/enshrinee-edit": { ...CONSOLE, body: "console form with an image" },
  "routes/admin/enshrinee-preview": CONSOLE,
  "routes/admin/enshrinee-version": CONSOLE,
  "routes/admin/enshrinee-import": { ...CONSOLE, body: "console CSV import" },
  "routes/admin/enshrinee-export": CONSOLE,
  // The Add-slide forms carry their image file (decision 039).
  "routes/admin/banner": { ...CONSOLE, body: "console form with an image" },
  "routes/admin/banner-preview": CONSOLE,
  "routes/admin/banner-version": CONSOLE,
  // The media library (decision 061): several image files at once, or url-encoded descriptions and deletes.
  "routes/admin/media": { ...CONSOLE, body: "console form with an image" },
  "routes/admin/trash": CONSOLE,
  "routes/admin/members": CONSOLE,
  "routes/admin/members-export": CONSOLE,
  "routes/admin/member": CONSOLE,
  "routes/admin/gifts": CONSOLE,
  "routes/admin/payments": CONSOLE,
  "routes/admin/payments-export": CONSOLE,
  "routes/admin/messages": CONSOLE,
  "routes/admin/message": CONSOLE,
  "routes/admin/subscribers": CONSOLE,
  "routes/admin/subscribers-export": CONSOLE,
  "routes/not-found": {},
};

/**
 * The host's own routes (the JSON API under /api, Stripe's webhook, image renditions), by
 * "METHOD pattern" as their Express routers declare them (server/api, server/payments,
 * server/images). A request under /api, /images/view or /images/share that none of them matches gets the
 * API's default: `writes` for a write, JSON body.
 */
export const HOST_POLICIES: Record<string, RoutePolicy> = {
  // Stripe's own retries; the body is signed.
  "POST /api/stripe/webhook": { write: null, body: "Stripe webhook" },
  "POST /api/users": {},
  "POST /api/users/login": { write: "login" },
  "POST /api/users/relogin": {},
  "POST /api/users/logout": {},
  "POST /api/users/request-reset": { write: "resetRequest" },
  "POST /api/users/reset-password": { write: "resetUse" },
  "POST /api/stripe/payment": {},
  "POST /api/stripe/payment/confirm": {},
  "GET /api/teams": COLLECTION_DATA,
  "GET /api/teams/:id": COLLECTION_DATA,
  "GET /api/categories": COLLECTION_DATA,
  "GET /api/categories/:id": COLLECTION_DATA,
  "GET /api/exhibits": COLLECTION_DATA,
  "GET /api/exhibits/:id": COLLECTION_DATA,
  "GET /api/enshrinees": COLLECTION_DATA,
  "GET /api/enshrinees/:enshrineeID": COLLECTION_DATA,
  "GET /api/search": { read: "search", shared: true },
  "GET /api/search/suggest": { read: "search", shared: true },
  // A page shown counts one view (decision 060): no cookie, no session, counted in memory.
  "POST /api/visits": { write: "visits", body: "visit count" },
  "POST /api/email/contact": { write: "forms" },
  "POST /api/contact": { write: "forms" },
  "POST /api/mc/subscribe": { write: "forms" },
  "POST /api/subscribes": { write: "forms" },
  // A page shows up to ~40 images; renders are the costly part, hits are cheap.
  "GET /images/view/*file": { read: "images" },
  // Share cards (decision 027): drawn once per record version, then served from the disk cache.
  "GET /images/share/:kind/*rest": { read: "images" },
};
