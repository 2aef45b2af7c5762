/**
 * Security headers for every answer: helmet's set with a strict Content-Security-Policy (a
 * per-request nonce for scripts; outside origins only for Stripe and reCAPTCHA when they are
 * configured), HSTS on an https PUBLIC_URL, a Permissions-Policy that turns off the
 * browser features the site never uses, and `Referrer-Policy: same-origin`: no other site learns
 * which page someone came from (tokens are in some of its addresses), while a form the browser
 * posts by itself (no script yet, or none at all) carries the page's own Origin. Under helmet's
 * default, no-referrer, that Origin is `null`, and React Router refuses such an action as a
 * forgery ("Bad Request"): every form failed without JavaScript.
 */
import type { RequestHandler, Response } from "express";
import helmet from "helmet";
import type { Config } from "../config";
import { cspNonce } from "../security/csp-nonce";
import { routeOf } from "./route-policy";

/** Outside origins the pages may use: Stripe.js and reCAPTCHA, only when configured. */
export function thirdPartyOrigins(config: Config) {
  const o = { script: [] as string[], frame: [] as string[], connect: [] as string[], img: [] as string[] };
  if (config.PAYMENTS === "stripe" && config.STRIPE_PUBLISHABLE_KEY) {
    o.script.push("https://js.stripe.com");
    o.frame.push("https://js.stripe.com", "https://hooks.stripe.com");
    o.connect.push("https://api.stripe.com");
  }
  if (config.RECAPTCHA_SITE_KEY) {
    o.script.push("https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/");
    o.frame.push("https://www.google.com/recaptcha/", "https://recaptcha.google.com/recaptcha/");
    o.connect.push("https://www.google.com/recaptcha/");
    o.img.push("https://www.gstatic.com/recaptcha/");
  }
  return o;
}

/** Features no page uses; `payment` stays open to Stripe's frames when Stripe is configured. */
export function permissionsPolicy(config: Config): string {
  const payment = config.PAYMENTS === "stripe" ? 'payment=(self "https://js.stripe.com")' : "payment=()";
  return [
    "accelerometer=()",
    "camera=()",
    "geolocation=()",
    "gyroscope=()",
    "magnetometer=()",
    "microphone=()",
    "usb=()",
    "browsing-topics=()",
    payment,
  ].join(", ");
}

export function securityHeaders(config: Config, { csp }: { csp: boolean }): RequestHandler[] {
  const thirdParty = thirdPartyOrigins(config);
  const https = config.PUBLIC_URL.startsWith("https://");
  const policy = permissionsPolicy(config);
  const nonce: RequestHandler = (_req, res, next) => {
    res.locals.cspNonce = cspNonce();
    res.setHeader("Permissions-Policy", policy);
    // Pages where a password, a card, an emailed token or personal data is typed or shown open
    // their own browsing context group; public collection pages do not (on a phone the header
    // costs a new renderer process on the way in, decision 016 addendum 3). Each route says which
    // (`isolated` in app/shared/route-policy.ts).
    if (routeOf(res).isolated) res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    next();
  };
  const headers = helmet({
    contentSecurityPolicy: csp
      ? {
          useDefaults: false,
          directives: {
            "default-src": ["'self'"],
            "script-src": ["'self'", (_req, res) => `'nonce-${(res as Response).locals.cspNonce}'`, ...thirdParty.script],
            "style-src": ["'self'", "'unsafe-inline'"],
            "img-src": ["'self'", "data:", ...thirdParty.img],
            "font-src": ["'self'"],
            "connect-src": ["'self'", ...thirdParty.connect],
            "frame-src": thirdParty.frame.length ? thirdParty.frame : ["'none'"],
            "frame-ancestors": ["'none'"],
            "form-action": ["'self'"],
            "base-uri": ["'self'"],
            "object-src": ["'none'"],
            ...(https ? { "upgrade-insecure-requests": [] } : {}),
          },
        }
      : false,
    hsts: https,
    referrerPolicy: { policy: "same-origin" },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    // Headers for browsers long gone (IE8's downloads, Flash and Acrobat's cross-domain files, the
    // XSS auditor Chrome removed in 2019, DNS prefetch, which the CSP does not need off): 130 bytes
    // on every answer, which on the home page pushed the first answer past a new connection's
    // first round trip on a slow network (decision 016, addendum 5).
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
  return [nonce, headers];
}
