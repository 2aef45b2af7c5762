/**
 * The domain services, built once per process from their dependencies and handed to both
 * adapters (React Router loaders/actions through the load context, and the JSON API).
 */
import path from "node:path";
import type { Config } from "./config";
import type { DatabaseHandle } from "./db/client";
import type { Logger } from "./logger";
import { createAccounts } from "./accounts/accounts-service";
import { sessionCookies } from "./accounts/session-cookie.server";
import { createSessionStore } from "./accounts/sessions";
import { cacheCatalog } from "./catalog/cached-catalog";
import { createCatalogChangeFeed } from "./catalog/change-feed";
import { createCatalog } from "./catalog/catalog-service";
import { createLastModified } from "./catalog/last-modified";
import { createPublisher } from "./catalog/publisher";
import { createSearch } from "./search/search-service";
import { createImageService } from "./images/image-service";
import { createShareCards } from "./images/share-cards";
import { createRenditionWarmer } from "./images/rendition-warmer";
import { imagesInUse } from "./catalog/images-in-use";
import { SITE_NAME } from "../app/shared/site";
import { createMediaObjects } from "./media/media-objects";
import { createMailer, type Mailer } from "./mail/mailer";
import { createMembership } from "./membership/membership-service";
import { createMuseumCalendar } from "./membership/museum-calendar";
import { createReminders } from "./membership/reminders";
import { createNewsletter } from "./newsletter/newsletter-service";
import { createOutboxWorker, type JobHandlers } from "./outbox/outbox";
import { outboxLeaseLost } from "./metrics/metrics";
import { createHousekeeping } from "./jobs/housekeeping";
import { createPaymentService } from "./payments/payment-service.server";
import type { PaymentProvider } from "./payments/provider";
import { createStripeClient, createStripeProvider } from "./payments/stripe-provider";
import { createTestModeProvider } from "./payments/test-mode-provider";
import { createBotCheck } from "./botcheck/botcheck";
import { createContactService } from "./contact/contact-service";
import { createMailchimpSync } from "./newsletter/mailchimp";
import { createAdminServices } from "./admin/admin-services";
import { createAccountData } from "./account-data/account-overview";
import { createAccountSettings } from "./accounts/account-settings";
import { createGifts } from "./gifts/gift-service";
import { createAccountLifecycle } from "./account-data/account-lifecycle";
import { createIdempotency } from "./idempotency/idempotency";
import { createCollectionTrash } from "./catalog/collection-trash";
import { createMediaStorage } from "./media/media-storage";
import { createTrafficGauge } from "./http/traffic";
import { lowerRenderThreads } from "./images/render-priority";
import { createBackups } from "./backup/backup-service";
import { migrationsFolder } from "./db/migrate";
import { createCachePurge } from "./pages/cache-purge";
import { COLLECTION_KEY } from "./http/shared-caching";
import { createStaffSignIn } from "./accounts/staff-sign-in.server";
import { createPasskeys } from "./accounts/passkeys.server";
import { createSecretBox } from "./accounts/secret-box";
import { createVisitPages } from "./visits/visit-pages";
import { createVisitCounter } from "./visits/visit-counter";

export interface ServiceDeps {
  config: Config;
  database: DatabaseHandle;
  logger: Logger;
  sessionSecret: string;
  /** SECRETS_KEY as resolved at boot (null: not set where it must be); tests default to one derived from the session secret. */
  secretsKey?: string | null;
  now?: () => Date;
  /** Replaces the provider chosen from config (tests). */
  paymentProvider?: PaymentProvider;
  mailer?: Mailer;
  mailchimp?: JobHandlers["mailchimp"];
  /** The SQL migrations (backups record the last one); default ./drizzle. */
  migrationsFolder?: string;
}

/** The Stripe SDK client, built once: the provider and the webhook share it. Null in test mode. */
function stripeClientFrom(config: Config) {
  if (config.PAYMENTS !== "stripe" || !config.STRIPE_SECRET_KEY) return null;
  return createStripeClient(config.STRIPE_SECRET_KEY, config.STRIPE_API_BASE);
}

function paymentProviderFrom(config: Config, stripe: ReturnType<typeof stripeClientFrom>): PaymentProvider {
  if (stripe && config.STRIPE_PUBLISHABLE_KEY) return createStripeProvider({ stripe, publishableKey: config.STRIPE_PUBLISHABLE_KEY });
  return createTestModeProvider();
}

function mailchimpHandler(config: Config, logger: Logger): JobHandlers["mailchimp"] {
  if (config.MAILCHIMP_API_KEY && config.MAILCHIMP_SERVER_PREFIX && config.MAILCHIMP_AUDIENCE_ID) {
    return createMailchimpSync({
      apiKey: config.MAILCHIMP_API_KEY,
      serverPrefix: config.MAILCHIMP_SERVER_PREFIX,
      audienceId: config.MAILCHIMP_AUDIENCE_ID,
      apiBase: config.MAILCHIMP_API_BASE,
    });
  }
  return async (job) => {
    logger.info({ email: job.email }, job.unsubscribe ? "newsletter removal done locally (Mailchimp not configured)" : "newsletter subscriber kept locally (Mailchimp not configured)");
  };
}

export function createServices(deps: ServiceDeps) {
  const { config, database, logger, sessionSecret, now } = deps;
  const db = database.db;
  const timeZone = config.MUSEUM_TIME_ZONE;
  const mailer = deps.mailer ?? createMailer({ smtpUrl: config.MAIL === "smtp" ? config.SMTP_URL : undefined, from: config.MAIL_FROM, logger, messageIdHost: new URL(config.PUBLIC_URL).hostname });
  const stripe = stripeClientFrom(config);
  /** The museum's clock: the one "today" every service asks (decision 023). */
  const calendar = createMuseumCalendar(timeZone, now);
  const provider = deps.paymentProvider ?? paymentProviderFrom(config, stripe);
  const reminders = createReminders({
    db,
    mailer,
    offsets: config.REMINDER_DAYS,
    calendar,
    publicUrl: config.PUBLIC_URL,
    secret: sessionSecret,
    ticketDays: config.TICKET_DAYS,
    priceCents: config.TICKET_PRICE_CENTS,
    logger,
  });
  const outbox = createOutboxWorker({
    db,
    logger,
    now,
    onLeaseLost: (kind) => outboxLeaseLost.inc({ kind }),
    handlers: {
      email: (job, context) => mailer.send(job, context),
      mailchimp: deps.mailchimp ?? mailchimpHandler(config, logger),
      passwordReset: (tx, job) => accounts.issuePasswordReset(tx, job),
      reminder: (job, context) => reminders.send(job, context),
      giftDelivery: (tx, job) => gifts.deliver(tx, job),
    },
  });
  const onEnqueued = () => outbox.kick();
  const catalogChanges = createCatalogChangeFeed({ database, databaseUrl: config.DATABASE_URL, logger });
  // PostgreSQL: a member's session is remembered while the change feed's sessions channel says
  // nothing changed; a logout or ticket waits for every listener to have heard (decision 040).
  const sessions = createSessionStore({
    db,
    secret: sessionSecret,
    calendar,
    writeCount: database.writeCount,
    changes: catalogChanges,
    staffIdleMs: config.STAFF_IDLE_MINUTES * 60_000,
    staffMaxMs: config.STAFF_SESSION_HOURS * 3_600_000,
  });
  const secretsKey = deps.secretsKey === undefined ? `${sessionSecret}:secrets` : deps.secretsKey;
  const staffSignIn = createStaffSignIn({ db, secret: sessionSecret, secretBox: secretsKey ? createSecretBox(secretsKey) : null, now: calendar.now, onEnqueued, relaxedLimits: config.RATE_LIMIT_RELAXED });
  const newsletter = createNewsletter({ db, now, onEnqueued });
  const accounts = createAccounts({ db, sessions, newsletter, publicUrl: config.PUBLIC_URL, calendar, onEnqueued, relaxedLimits: config.RATE_LIMIT_RELAXED });
  const membership = createMembership({ db, calendar, provider, ticketDays: config.TICKET_DAYS, priceCents: config.TICKET_PRICE_CENTS, publicUrl: config.PUBLIC_URL, onEnqueued, logger, accessSettled: sessions.settled });
  const payments = createPaymentService({
    provider,
    membership,
    priceCents: config.TICKET_PRICE_CENTS,
    logger,
  });
  /** Gift tickets (decision 018): bought by anyone, delivered on their date, redeemed once. */
  const gifts = createGifts({
    db,
    provider,
    membership,
    calendar,
    priceCents: config.TICKET_PRICE_CENTS,
    ticketDays: config.TICKET_DAYS,
    publicUrl: config.PUBLIC_URL,
    logger,
    onEnqueued,
  });
  const cachedCatalog = config.CATALOG_CACHE_SECONDS > 0 ? cacheCatalog(createCatalog(db, { now }), config.CATALOG_CACHE_SECONDS * 1000) : null;
  const catalog = cachedCatalog ?? createCatalog(db, { now });
  // Staff changes reach every instance's caches through LISTEN/NOTIFY (decision 012); the host starts the listener.
  if (cachedCatalog) catalogChanges.onChange(() => cachedCatalog.clear());
  /** Scheduled records appear at their time without a save: the caches are told (decision 032). */
  const publisher = createPublisher({ db, logger, now, notifyChange: () => catalogChanges.notify() });
  // With DATABASE_URL the originals live in PostgreSQL, shared by every instance (decision 024); PGlite keeps the disk.
  const mediaObjects = database.kind === "postgres" ? createMediaObjects(db) : undefined;
  const images = createImageService({
    mediaDir: path.join(config.DATA_DIR, "media"),
    cacheDir: path.join(config.DATA_DIR, "image-cache"),
    originals: mediaObjects,
  });
  // The renditions pages use, made before a visitor asks; the host starts it (one per machine).
  // This process's requests in flight: the warmer renders in the quiet moments between them (decision 041).
  const traffic = createTrafficGauge();
  const renditionWarmer = createRenditionWarmer({ images, wanted: () => imagesInUse(db), logger, traffic, lowerPriority: lowerRenderThreads });
  catalogChanges.onChange(() => renditionWarmer.changed());
  // A cache in front is asked to drop the collection's answers after each change this process commits (decision 054).
  const cachePurge = config.PURGE_URL ? createCachePurge({ url: config.PURGE_URL, token: config.PURGE_TOKEN, logger }) : null;
  if (cachePurge) catalogChanges.onCommitted(() => void cachePurge.purge([COLLECTION_KEY]));
  /** Deleted collection records, restorable for TRASH_DAYS, then purged by housekeeping (decision 031). */
  const trash = createCollectionTrash({
    db,
    storage: createMediaStorage(path.join(config.DATA_DIR, "media"), mediaObjects),
    days: config.TRASH_DAYS,
    now,
    notifyChange: (tx) => catalogChanges.notify(tx),
  });
  const contact = createContactService({ db, newsletter, museumEmail: config.CONTACT_EMAIL_TO, now, onEnqueued });
  const search = createSearch(db, now);
  /** Page views and searches per day, no visitor named (decision 060); the host starts its timer. */
  const visitPages = createVisitPages(catalog);
  catalogChanges.onChange(() => visitPages.changed());
  const visits = createVisitCounter({
    db,
    pages: visitPages,
    searchTotal: async (request) => (await search.search(request, false)).total,
    today: calendar.today,
    flushMs: config.VISIT_FLUSH_SECONDS * 1000,
    logger,
  });
  const botCheck = createBotCheck({ secret: config.RECAPTCHA_SECRET, verifyUrl: config.RECAPTCHA_VERIFY_URL, minScore: config.RECAPTCHA_MIN_SCORE });
  return {
    config,
    /** The injected clock (tests), else the real one. */
    now: now ?? (() => new Date()),
    database,
    logger,
    stripe,
    sessions,
    /** Starts (rotating) and ends sessions with their Set-Cookie, Secure under https: every adapter's one way. */
    sessionCookies: sessionCookies(sessions, config.PUBLIC_URL),
    catalog,
    catalogChanges,
    /** The purge hook of a cache in front (PURGE_URL), or null. */
    cachePurge,
    publisher,
    /** The collection's update times: the sitemap's lastmod (decision 027). */
    lastModified: createLastModified(db),
    // Never cached: the triggers keep it current, so a change is searchable once it commits.
    search,
    visitPages,
    visits,
    images,
    renditionWarmer,
    /** Requests in flight in this process; the host counts them (decision 041). */
    traffic,
    /** Share cards of the pages (decision 027), drawn from public images into their own cache. */
    shareCards: createShareCards({ db, images, cacheDir: path.join(config.DATA_DIR, "image-cache", "share-cards"), museumName: SITE_NAME, now }),
    accounts,
    /** Staff sign-in's second step: app codes, recovery codes, emailed codes, known browsers, the owner's requirement (decision 055). */
    staffSignIn,
    /** Passkeys (WebAuthn) of staff and members: a way in, and staff's second step (decision 056). */
    passkeys: createPasskeys({ db, staffSignIn, now: calendar.now }),
    /** The account page's reads. */
    accountData: createAccountData({ db }),
    /** Name, email and password changes of a signed-in account. */
    accountSettings: createAccountSettings({ db, sessions, publicUrl: config.PUBLIC_URL, now, onEnqueued }),
    /** 'Download my data' and 'Delete my account'. */
    accountLifecycle: createAccountLifecycle({ db, now, onEnqueued, accessSettled: sessions.settled }),
    membership,
    payments,
    gifts,
    newsletter,
    outbox,
    /** Expiry reminders: queued by housekeeping, sent by the outbox, turned off from /account or the email. */
    reminders,
    /** Backups while serving, on a schedule and on request (decision 046). */
    backups: createBackups({ database, config, migrationsFolder: deps.migrationsFolder ?? migrationsFolder(), logger, now }),
    housekeeping: createHousekeeping({ database, logger, now, reminders, onEnqueued, trash }),
    mailer,
    contact,
    botCheck,
    onEnqueued,
    /** Idempotency-Key answers of the API's and the forms' writes (decision 025). */
    idempotency: createIdempotency({ db, serialized: database.kind === "pglite", secret: sessionSecret, now, onCommitted: onEnqueued }),
    admin: createAdminServices({
      db,
      publicUrl: config.PUBLIC_URL,
      now,
      onEnqueued,
      notifyCollectionChange: (tx) => catalogChanges.notify(tx),
      mediaDir: path.join(config.DATA_DIR, "media"),
      mediaObjects,
      trash,
      timeZone,
      visitPages,
      membership,
      museumEmail: config.CONTACT_EMAIL_TO,
      requestPasswordReset: (email) => accounts.requestPasswordReset(email),
      giftStateOf: (g) => gifts.stateOf(g),
      mailchimp: Boolean(config.MAILCHIMP_API_KEY && config.MAILCHIMP_SERVER_PREFIX && config.MAILCHIMP_AUDIENCE_ID),
    }),
  };
}

export type Services = ReturnType<typeof createServices>;
