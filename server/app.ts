/**
 * The Express application: security headers, compression, static files, health check, the
 * JSON API and the React Router request handler, in that order.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type Request, type RequestHandler, type Response } from "express";
import helmet from "helmet";
import { pinoHttp } from "pino-http";
import { createRequestHandler as createFetchHandler, type AppLoadContext, type ServerBuild } from "react-router";
import { requestSessionToken } from "./accounts/request-auth";
import { createAccountsApi } from "./api/accounts-api";
import { createMessagesApi } from "./api/messages-api";
import { createStripeClient } from "./payments/stripe-provider";
import { createStripeWebhookRouter } from "./payments/stripe-webhook";
import { createRateLimits } from "./security/limits";
import { cspNonce } from "./security/csp-nonce";
import { sameOriginOnly } from "./security/same-origin";
import { createCatalogApi } from "./api/catalog-api";
import { collectionJson } from "./api/collection-json";
import { apiErrorHandler } from "./api/error-handler";
import { sendError } from "./api/http-errors";
import { createImageRouter } from "./images/image-routes";
import { createAnonymousPageCache } from "./pages/anonymous-page-cache";
import { isMemberOnlyImage } from "./images/member-only";
import type { PublicSettings } from "./load-context";
import type { Viewer } from "../app/lib/access";
import type { Services } from "./services";

export interface AppOptions {
  services: Services;
  /** The React Router server build, or a loader of it (Vite dev server). */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** Directory of the browser build (build/client); omitted in development (Vite serves it). */
  clientDir?: string;
  /** Extra middleware placed before the page handler (Vite's, in development). */
  devMiddleware?: RequestHandler;
}

export function publicSettings(services: Services): PublicSettings {
  const c = services.config;
  return {
    shopUrl: c.SHOP_URL,
    publicUrl: c.PUBLIC_URL,
    ticketPriceCents: c.TICKET_PRICE_CENTS,
    ticketDays: c.TICKET_DAYS,
    contactEmail: c.CONTACT_EMAIL_TO,
    recaptchaSiteKey: c.RECAPTCHA_SITE_KEY ?? null,
  };
}

/** Outside origins the pages may use: Stripe.js and reCAPTCHA, only when configured. */
export function thirdPartyOrigins(config: Services["config"]) {
  const o = { script: [] as string[], frame: [] as string[], connect: [] as string[], img: [] as string[] };
  if (config.STRIPE_PUBLISHABLE_KEY) {
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

export function createApp({ services, build, clientDir, devMiddleware }: AppOptions) {
  const { config, logger } = services;
  const production = !devMiddleware;
  const limits = createRateLimits(services.database.db, config.RATE_LIMIT_RELAXED);
  const thirdParty = thirdPartyOrigins(config);
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", "loopback");

  app.use(
    pinoHttp({
      logger,
      genReqId: (req, res) => {
        const id = randomUUID();
        res.setHeader("X-Request-Id", id);
        return id;
      },
      autoLogging: { ignore: (req) => req.url === "/healthz" || req.url?.startsWith("/assets/") === true },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? "error" : "info"),
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  );

  app.use((_req, res, next) => {
    res.locals.cspNonce = cspNonce();
    next();
  });

  app.use(
    helmet({
      contentSecurityPolicy: production
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
              ...(config.PUBLIC_URL.startsWith("https://") ? { "upgrade-insecure-requests": [] } : {}),
            },
          }
        : false,
      hsts: config.PUBLIC_URL.startsWith("https://"),
      crossOriginEmbedderPolicy: false,
    }),
  );

  const settings = publicSettings(services);
  const loadContext = (req: Request, res: Response, viewer: AppLoadContext["viewer"], cspNonce: string): AppLoadContext => ({
    services,
    viewer,
    requestId: String(req.id),
    cspNonce,
    logger: req.log,
    settings,
    clientIp: req.ip ?? "unknown",
    renderState: { loadFailed: false },
  });

  // Pages every visitor sees alike, rendered once per instance and served compressed (decision 008).
  if (production && config.PAGE_CACHE_SECONDS > 0) {
    const pageCache = createAnonymousPageCache({
      render: createFetchHandler(build, "production"),
      loadContext: (req, res) => loadContext(req, res, null, ""),
      origin: config.PUBLIC_URL,
      ttlSeconds: config.PAGE_CACHE_SECONDS,
    });
    app.use(pageCache.middleware);
  }

  app.use(compression());

  if (clientDir) {
    // Vite fingerprints everything under /assets: cache it for a year, never revalidate.
    app.use(
      "/assets",
      express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }),
    );
    app.use(express.static(clientDir, { maxAge: "1h", index: false }));
  }

  app.get("/healthz", async (_req, res) => {
    try {
      await services.database.ping();
      res.json({ status: "ok", database: services.database.kind });
    } catch (error) {
      logger.error({ err: error }, "health check failed");
      res.status(503).json({ status: "unavailable" });
    }
  });

  // Who is asking, decided once per request from the session, for the API and the pages alike.
  app.use(async (req, res, next) => {
    if (req.path.startsWith("/assets/")) return next();
    try {
      res.locals.viewer = await services.sessions.viewerFor(requestSessionToken(req.headers.cookie, req.headers.authorization));
      next();
    } catch (error) {
      next(error);
    }
  });

  app.use(
    createImageRouter({
      images: services.images,
      isMemberOnly: isMemberOnlyImage,
      isMember: async (req) => (req.res?.locals.viewer as Viewer | null | undefined)?.member === true,
    }),
  );

  app.use("/api", (_req, res, next) => {
    res.setHeader("Cache-Control", "private, no-cache");
    next();
  });
  if (config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET) {
    app.use(
      createStripeWebhookRouter({
        stripe: createStripeClient(config.STRIPE_SECRET_KEY, config.STRIPE_API_BASE),
        webhookSecret: config.STRIPE_WEBHOOK_SECRET,
        membership: services.membership,
        db: services.database.db,
        logger,
        priceCents: config.TICKET_PRICE_CENTS,
      }),
    );
  }
  app.use(sameOriginOnly(config.PUBLIC_URL, ["/api/stripe/webhook"]));
  app.use("/api", express.json({ limit: "64kb" }));
  app.use("/api", createCatalogApi(services.catalog, collectionJson({ resultsAreShared: config.CATALOG_CACHE_SECONDS > 0 })));
  app.use("/api", createAccountsApi(services, limits));
  app.use("/api", createMessagesApi(services, limits));
  app.use("/api", (_req, res) => sendError(res, 404, "Not found"));
  app.use("/api", apiErrorHandler);

  if (devMiddleware) app.use(devMiddleware);

  const getLoadContext = async (req: Request, res: Response): Promise<AppLoadContext> =>
    loadContext(req, res, res.locals.viewer ?? null, String(res.locals.cspNonce));

  app.all("/{*splat}", createRequestHandler({ build, getLoadContext, mode: production ? "production" : "development" }));

  return app;
}
