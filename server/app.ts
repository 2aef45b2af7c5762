/**
 * The Express application, composed from named middleware in this order: stored visitor pages
 * (with the headers of their first answer), request log, the route and its policy
 * (server/http/route-policy.ts, read by everything after it), security headers, the page cache, body
 * limits, compression, static files, liveness and readiness, rate limits, the viewer, images, the JSON
 * API, and the pages (React Router).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import compression from "compression";
import expressStaticGzip from "express-static-gzip";
import express, { type Request, type RequestHandler, type Response } from "express";
import { createRequestHandler as createFetchHandler, type AppLoadContext, type ServerBuild } from "react-router";
import { canSeeMemberContent } from "../app/shared/access";
import type { SignedInViewer } from "./accounts/sessions";
import { createAccountsApi } from "./api/accounts-api";
import { createCatalogApi } from "./api/catalog-api";
import { collectionJson } from "./api/collection-json";
import { sendError } from "./api/http-errors";
import { createMessagesApi } from "./api/messages-api";
import { createSearchApi } from "./api/search-api";
import { createVisitsApi } from "./api/visits-api";
import { enforceBodyLimits, readJsonBody } from "./http/body-limits";
import { crashProbe, liveness, readinessCheck } from "./http/health";
import { apiErrorHandler, pageErrorHandler } from "./http/host-errors";
import { createPageHandler, fetchRequestFrom, sendFetchResponse } from "./http/page-handler";
import { logRequest, requestLog, storedPageTally } from "./http/request-log";
import { securityHeaders } from "./http/security-headers";
import { routeOf, routePolicies } from "./http/route-policy";
import { carriesSession, markShared } from "./http/shared-caching";
import { resolveViewer } from "./http/viewer";
import { createImageRouter } from "./images/image-routes";
import { isMemberOnlyImage, isRecordImage } from "./images/member-only";
import { namesVisibleMedia } from "./catalog/catalog-service";
import type { PublicSettings } from "./load-context";
import { enableMetrics, observeAnswer, recordRequestDurations } from "./metrics/metrics";
import { metricsEndpoint } from "./metrics/metrics-endpoint";
import { createPageCache, tierViewer } from "./pages/page-cache";
import { createStripeWebhookRouter } from "./payments/stripe-webhook";
import { createHostRateLimiter } from "./security/limits";
import { sameOriginOnly } from "./security/same-origin";
import type { Services } from "./services";

/** The pages a visitor most often opens first, rendered ahead at start-up (home first). */
const PAGES_RENDERED_AT_START = ["/", "/about", "/enshrinees", "/favoritestories"] as const;

export interface AppOptions {
  services: Services;
  /** The React Router server build, or a loader of it (Vite dev server). */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** Directory of the browser build (build/client); omitted in development (Vite serves it). */
  clientDir?: string;
  /** Extra middleware placed before the page handler (Vite's, in development). */
  devMiddleware?: RequestHandler;
  /** True once the process is stopping: /readyz answers 503 (server/index.ts, decision 020). */
  draining?: () => boolean;
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
    testMode: { payments: c.PAYMENTS === "test", mail: c.MAIL === "log" },
    countVisits: c.VISIT_COUNTS,
  };
}

const viewerOf = (res: Response) => (res.locals.viewer as SignedInViewer | null | undefined) ?? null;
const imageViewer = (req: Request) => (req.res ? viewerOf(req.res) : null);
const isStaffRequest = (req: Request) => {
  const role = imageViewer(req)?.role;
  return role === "curator" || role === "admin";
};

export function createApp({ services, build, clientDir, devMiddleware, draining }: AppOptions) {
  const { config, logger } = services;
  const production = !devMiddleware;
  const mode = production ? "production" : "development";
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.TRUST_PROXY);

  // Prometheus metrics (decision 021): off, /metrics an ordinary 404, unless METRICS_TOKEN is set.
  if (config.METRICS_TOKEN) {
    enableMetrics({ database: services.database, changeFeed: services.catalogChanges });
    app.use(recordRequestDurations);
    app.get("/metrics", metricsEndpoint(config.METRICS_TOKEN));
  }

  // Each request's route and its policy, resolved once from the route that matched (decision 022).
  const policies = routePolicies(build);
  // What a cache in front may keep of a visitor's answer (decision 054).
  const sharedCache = { seconds: config.SHARED_CACHE_SECONDS };
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
    rateLimited: (res.locals.rateLimited as string | undefined) ?? null,
    hostError: (res.locals.hostError as number | undefined) ?? null,
  });
  /** A stored page rendered again in the background (decision 038): no request, no client. */
  const refreshContext = (viewer: AppLoadContext["viewer"]): AppLoadContext => ({
    services,
    viewer,
    requestId: "page-refresh",
    cspNonce: "",
    logger,
    settings,
    clientIp: "page-refresh",
    renderState: { loadFailed: false },
    rateLimited: null,
    hostError: null,
  });
  const pageContext = (req: Request, res: Response) => loadContext(req, res, viewerOf(res), String(res.locals.cspNonce));

  // Collection pages rendered once per instance and access tier, served compressed (decisions 008, 013);
  // each one sent is counted, and logged line by line only at `debug` (decision 057).
  const tally = production && config.PAGE_CACHE_SECONDS > 0 ? storedPageTally(logger) : null;
  const pageCache =
    production && config.PAGE_CACHE_SECONDS > 0
      ? createPageCache({
          render: createFetchHandler(build, "production"),
          cacheAddress: (req) => policies.forRequest(req).cacheAddress,
          loadContext: (tier, from) => {
            const viewer = tier ? tierViewer(tier) : null;
            return from ? loadContext(from.req, from.res, viewer, "") : refreshContext(viewer);
          },
          origin: config.PUBLIC_URL,
          ttlSeconds: config.PAGE_CACHE_SECONDS,
          sharedCache,
          onServe: (req, res) => {
            tally?.add();
            return logRequest(logger, req, res, false, "debug");
          },
          onRefreshError: (err, address) => logger.warn({ err, address }, "a stored page could not be rendered again; the next reader renders it"),
          tierOf: async (token) => {
            const viewer = await services.sessions.viewerFor(token);
            return viewer ? { member: viewer.member, firstName: viewer.firstName } : null;
          },
        })
      : null;
  // A stored visitor page goes out first, with the headers of its first answer (decision 012);
  // a change renders the stored pages again in the background (decision 038).
  if (pageCache) {
    app.use(pageCache.storedPages);
    services.catalogChanges.onChange(() => pageCache.changed());
  }

  app.use(requestLog(logger));
  app.use(policies.middleware);
  app.use(securityHeaders(config, { csp: production }));
  if (pageCache) app.use(pageCache.middleware);

  app.use(enforceBodyLimits);
  app.use(compression());

  if (clientDir) {
    // Vite fingerprints everything under /assets: cache it for a year, never revalidate. The build
    // compressed each script and stylesheet once, as hard as brotli and gzip go
    // (scripts/precompress-assets.mjs); those copies are sent as they are, the compression
    // middleware leaves an encoded answer alone.
    app.use(
      "/assets",
      expressStaticGzip(path.join(clientDir, "assets"), { enableBrotli: true, orderPreference: ["br", "gzip"], index: false, serveStatic: { immutable: true, maxAge: "1y", index: false } }),
    );
    // Files at the top of build/client (favicon, robots, ...) all have an extension; pages never
    // do, so they skip the disk lookup (and the 404 error object it builds) on every request.
    const topLevelFiles = express.static(clientDir, { maxAge: "1h", index: false });
    app.use((req, res, next) => (path.extname(req.path) ? topLevelFiles(req, res, next) : next()));
  }

  // Liveness and readiness (decision 020); the crash probe only for tests.
  app.get("/healthz", liveness);
  app.get("/readyz", readinessCheck({ database: services.database, logger, draining, busy: services.backups.holdsDatabase }));
  if (config.ENABLE_ERROR_PROBE) app.get("/__crash-probe", crashProbe);

  // PGlite is one process's database, so one instance: its counters need not leave memory.
  app.use(createHostRateLimiter(services.database.db, config.RATE_LIMIT_RELAXED, services.database.kind === "pglite" ? "memory" : "database"));
  app.use(resolveViewer(services.sessions, logger));
  if (pageCache) app.use(pageCache.tieredMiddleware);

  app.use(
    createImageRouter({
      images: services.images,
      shareCards: services.shareCards,
      isMemberOnly: isMemberOnlyImage,
      // Staff see member-only photos too: the console shows the photos they manage (decision 015).
      isMember: async (req) => canSeeMemberContent(imageViewer(req)) || isStaffRequest(req),
      // Staff see the photos of drafts, scheduled records and the trash too (the console, its preview).
      // A file missing from the cached set is looked up once more: it may be newer than the cache.
      isHidden: async (req, file) =>
        isRecordImage(file) &&
        !isStaffRequest(req) &&
        !(await services.catalog.publicRecordMedia()).has(file) &&
        !(await namesVisibleMedia(services.database.db, file, services.now())),
    }),
  );

  // The collection and search for visitors are every visitor's (decision 054); the rest is one person's.
  app.use("/api", (req, res, next) => {
    if (routeOf(res).shared && !carriesSession(req)) markShared(res, sharedCache);
    else {
      res.setHeader("Cache-Control", "private, no-cache");
      res.vary("Cookie");
    }
    if (res.locals.hostError) return sendError(res, res.locals.hostError as number, "The museum's website is briefly unavailable. Please try again in a minute.");
    next();
  });
  if (services.stripe && config.STRIPE_WEBHOOK_SECRET) {
    app.use(
      createStripeWebhookRouter({
        stripe: services.stripe,
        webhookSecret: config.STRIPE_WEBHOOK_SECRET,
        membership: services.membership,
        gifts: services.gifts,
        db: services.database.db,
        logger,
        priceCents: config.TICKET_PRICE_CENTS,
      }),
    );
  }
  app.use(sameOriginOnly(config.PUBLIC_URL, ["/api/stripe/webhook"]));
  app.use("/api", readJsonBody);
  app.use("/api", createCatalogApi(services.catalog, collectionJson({ resultsAreShared: config.CATALOG_CACHE_SECONDS > 0 })));
  app.use("/api", createSearchApi(services.search));
  app.use("/api", createAccountsApi(services));
  app.use("/api", createMessagesApi(services));
  app.use("/api", createVisitsApi(config.VISIT_COUNTS ? services.visits : null));
  app.use("/api", (_req, res) => sendError(res, 404, "Not found"));
  app.use("/api", apiErrorHandler);

  if (devMiddleware) app.use(devMiddleware);

  const render = createFetchHandler(build, mode);
  /** The route error page for `status`, rendered as a GET of the same address. */
  async function renderErrorPage(req: Request, res: Response, status: number) {
    res.locals.hostError = status;
    const request = fetchRequestFrom(Object.assign(Object.create(req) as Request, { method: "GET" }), res);
    await sendFetchResponse(res, await render(request, pageContext(req, res)));
  }
  app.use((req, res, next) => {
    if (res.locals.hostError) return void renderErrorPage(req, res, res.locals.hostError as number).catch(next);
    next();
  });
  app.all("/{*splat}", createPageHandler({ build, mode, getLoadContext: pageContext, sharedCache }));
  app.use(pageErrorHandler(renderErrorPage));

  /**
   * For the host's own HTTP server: answers a stored visitor page before Express (decision 012),
   * timed like every other answer when /metrics is on.
   */
  const serveStoredPage = (req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean> => {
    if (!pageCache) return false;
    if (!config.METRICS_TOKEN) return pageCache.serveStored(req, res);
    const startedAt = process.hrtime.bigint();
    const observe = (served: boolean) => {
      if (served) observeAnswer(policies.forRequest(req).id, res.statusCode, startedAt);
      return served;
    };
    const served = pageCache.serveStored(req, res);
    return typeof served === "boolean" ? observe(served) : served.then(observe);
  };
  /** The stored pages rendered again in the background after a change (decision 038): wait for them, or stop them. */
  const pageRefresh = {
    settled: () => pageCache?.settled() ?? Promise.resolve(),
    stop: () => {
      tally?.stop();
      return pageCache?.stop() ?? Promise.resolve();
    },
    /** The visitors' pages most asked for first, rendered ahead once the site answers. */
    primeAtStart: () => pageCache?.prime(PAGES_RENDERED_AT_START) ?? Promise.resolve(),
  };
  return Object.assign(app, { serveStoredPage, pageRefresh });
}
