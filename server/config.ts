/**
 * Every environment variable the server reads, parsed once with Zod. A wrong value stops
 * start-up with a message naming the variable. Nothing else reads process.env.
 */
import path from "node:path";
import { z } from "zod";
import { SITE_SHORT_NAME } from "../app/shared/site";

const booleanFromEnv = z
  .enum(["true", "false", "1", "0", "yes", "no"], {
    message: "must be true or false",
  })
  .transform((v) => v === "true" || v === "1" || v === "yes");

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  PUBLIC_URL: z.url({ message: "must be an absolute URL like https://museum.example" }).optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /** Seals staff's authenticator-app secrets (decision 055); generated into DATA_DIR when unset, except in production on PostgreSQL. */
  SECRETS_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  /** A staff session ends after this many minutes without a request. */
  STAFF_IDLE_MINUTES: z.coerce.number().int().min(5).max(24 * 60).default(30),
  /** A staff session ends this many hours after its sign-in, active or not. */
  STAFF_SESSION_HOURS: z.coerce.number().int().min(1).max(24 * 30).default(12),
  TICKET_PRICE_CENTS: z.coerce.number().int().min(50).max(1_000_000).default(699),
  TICKET_DAYS: z.coerce.number().int().min(1).max(3660).default(120),
  MUSEUM_TIME_ZONE: z
    .string()
    .default("America/New_York")
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat("en-US", { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, "must be an IANA time zone such as America/New_York"),
  /**
   * Expiry reminders (decision 017, section 5): days before the ticket's last day, a comma list;
   * 0 = on the last day, negative = after it (-1: the day after it ended). Empty: no reminders.
   */
  REMINDER_DAYS: z
    .string()
    .default("14,7,1,-1")
    .transform((value, ctx) => {
      const parsed = parseReminderDays(value);
      if (typeof parsed === "string") {
        ctx.addIssue({ code: "custom", message: parsed });
        return z.NEVER;
      }
      return parsed;
    }),
  SHOP_URL: z.url().default("https://shop.pittsburghsportsmuseum.example"),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_PUBLISHABLE_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_BASE: z.url().optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, "must start with smtp:// or smtps://").optional(),
  MAIL_FROM: z.string().default(`${SITE_SHORT_NAME} <hello@pittsburghsportsmuseum.example>`),
  CONTACT_EMAIL_TO: z.email().default("info@pittsburghsportsmuseum.example"),
  MAILCHIMP_API_KEY: optionalString,
  MAILCHIMP_SERVER_PREFIX: optionalString,
  MAILCHIMP_AUDIENCE_ID: optionalString,
  RECAPTCHA_SITE_KEY: optionalString,
  RECAPTCHA_SECRET: optionalString,
  RECAPTCHA_MIN_SCORE: z.coerce.number().min(0).max(1).default(0.5),
  RECAPTCHA_VERIFY_URL: z.url().default("https://www.google.com/recaptcha/api/siteverify"),
  MAILCHIMP_API_BASE: z.url().optional(),
  /** The built-in stand-ins, chosen by name: `test` payments take Stripe's test cards and charge nothing. */
  PAYMENTS: z.enum(["stripe", "test"], { message: "must be stripe or test" }).optional(),
  /** `log` keeps outgoing mail in the outbox and the log instead of sending it. */
  MAIL: z.enum(["smtp", "log"], { message: "must be smtp or log" }).optional(),
  /** Reverse proxies in front of the site, for the client IP: a hop count or a list of addresses/subnets. */
  TRUST_PROXY: optionalString,
  SEED_DEMO: booleanFromEnv.optional(),
  /** How long each instance may serve collection reads from memory (0 = always ask the database). */
  CATALOG_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  /**
   * Make the renditions the pages use after start-up and after each collection change, before a
   * visitor asks. One render at a time in the background; "false" leaves every
   * rendition to the first request that wants it.
   */
  WARM_RENDITIONS: booleanFromEnv.default(true),
  /**
   * Collection pages are rendered once per instance and tier and kept; a change renders them
   * again in the background at once. This is only the safety net: a page older than this is
   * still served once more and rendered again behind it (decision 038). 0 turns the cache off.
   */
  PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(86400).default(300),
  /**
   * How long a cache in front of the site (nginx, Varnish, a CDN) may keep a visitor's page
   * (`s-maxage`, decision 054). 0: no shared cache keeps anything. Raise it only with PURGE_URL.
   */
  SHARED_CACHE_SECONDS: z.coerce.number().int().min(0).max(86400).default(1),
  /**
   * Called (POST, JSON `{"keys":[...]}`) after each collection change, with the keys
   * (`Surrogate-Key`/`Cache-Tag`) of what to purge from a cache in front (decision 054).
   */
  PURGE_URL: z.url({ message: "must be an absolute URL like http://127.0.0.1:8080/purge" }).optional(),
  /** Sent as `Authorization: Bearer …` with each purge, when the purge URL wants a token. */
  PURGE_TOKEN: optionalString,
  /**
   * Page views and searches counted per day, with no cookie and nothing that names a visitor
   * (decision 060): each page sends one small request when it is shown. false: no count is kept.
   */
  VISIT_COUNTS: booleanFromEnv.default(true),
  /** How often each process adds the views it counted in memory to the database (decision 060). */
  VISIT_FLUSH_SECONDS: z.coerce.number().min(0.05).max(300).default(5),
  /** How many days a deleted team, category, exhibit, enshrinee or banner slide stays in the console's Trash before housekeeping purges it and its media (decision 031). */
  TRASH_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** Where backups are written: `npm run backup`, the schedule, the copy before an upgrade. Default DATA_DIR/backups. */
  BACKUP_DIR: optionalString,
  /**
   * Hours between scheduled backups, taken by the running site. Default 24 on the embedded
   * PGlite; with DATABASE_URL none unless set (PostgreSQL is usually backed up by its own
   * tooling), one instance taking each. 0 turns the schedule off.
   */
  BACKUP_HOURS: z.coerce.number().min(0).max(24 * 366).optional(),
  /** How many days scheduled backups are kept; older ones are removed (the newest good one never is). */
  BACKUP_KEEP: z.coerce.number().int().min(1).max(3650).default(14),
  /**
   * On SIGTERM, how long a process keeps serving, /readyz answering 503, before it stops
   * listening and closes each connection after its next answer (decision 020): time for a proxy
   * that asks /readyz to stop choosing it.
   */
  DRAIN_SECONDS: z.coerce.number().int().min(0).max(120).default(6),
  /**
   * PostgreSQL: how long one database operation waits for the database to come back after a
   * fault (a restart, a failover, killed connections) before the request is answered 503
   * (decisions 037, 052): a refused connection is opened again, a read or a `transactionRetrying`
   * transaction cut before its COMMIT runs again, and a COMMIT cut in flight has its outcome looked up (answered when it
   * committed, run again when it was rolled back). 0 = answer 503 at once. At most 30, well
   * below a proxy's read timeout.
   */
  DB_RETRY_SECONDS: z.coerce.number().int().min(0).max(30).default(8),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Mounts /__error-probe, a route that throws, so tests can see the error fallback. */
  ENABLE_ERROR_PROBE: booleanFromEnv.default(false),
  /** Loosens rate limits for automated test runs; never set in production. */
  RATE_LIMIT_RELAXED: booleanFromEnv.default(false),
  /** Turns on GET /metrics (Prometheus), answered only with `Authorization: Bearer <token>` (decision 021). */
  METRICS_TOKEN: optionalString.refine((v) => v === undefined || v.length >= 16, "must be at least 16 characters"),
});

type ParsedEnv = z.infer<typeof envSchema>;

/** The furthest a reminder may be from the ticket's last day, either way. */
export const REMINDER_DAYS_LIMIT = 60;

/**
 * REMINDER_DAYS as distinct whole days, largest (earliest reminder) first, or what is wrong with it.
 */
export function parseReminderDays(value: string): number[] | string {
  const entries = value.split(",").map((v) => v.trim());
  if (entries.length === 1 && entries[0] === "") return [];
  const bad = entries.find((e) => !/^[+-]?\d{1,3}$/.test(e) || Math.abs(Number(e)) > REMINDER_DAYS_LIMIT);
  if (bad !== undefined) {
    return `must be a comma list of whole days between -${REMINDER_DAYS_LIMIT} and ${REMINDER_DAYS_LIMIT} (days before the ticket's last day; negative = after it), e.g. 14,7,1,-1; ${JSON.stringify(bad)} is not one`;
  }
  const days = entries.map(Number);
  if (new Set(days).size !== days.length) return `lists a day twice: ${value}`;
  return days.sort((a, b) => b - a);
}

export type Config = Omit<ParsedEnv, "PAYMENTS" | "MAIL" | "TRUST_PROXY" | "BACKUP_DIR" | "BACKUP_HOURS"> & {
  PUBLIC_URL: string;
  /** BACKUP_DIR, or DATA_DIR/backups. */
  BACKUP_DIR: string;
  /** Hours between scheduled backups; 0 = none (the default with DATABASE_URL). */
  BACKUP_HOURS: number;
  /** Which payment provider runs: Stripe, or the built-in test mode (no card is charged). */
  PAYMENTS: "stripe" | "test";
  /** Whether mail is sent over SMTP or only kept in the outbox and the log. */
  MAIL: "smtp" | "log";
  /** Express's `trust proxy` value: false (no proxy), a hop count, or addresses and subnets. */
  TRUST_PROXY: false | number | string[];
};

export class ConfigError extends Error {
  override name = "ConfigError";
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid environment variables:\n${lines.join("\n")}`);
  }
  const c = parsed.data;
  // Instances that share a PostgreSQL database must share the secret; a single embedded
  // (PGlite) instance generates its own into DATA_DIR.
  if (c.NODE_ENV === "production" && c.DATABASE_URL && !c.SESSION_SECRET) {
    throw new ConfigError(
      "Invalid environment variables:\n  SESSION_SECRET: required when NODE_ENV=production and DATABASE_URL is set",
    );
  }
  if (Boolean(c.RECAPTCHA_SITE_KEY) !== Boolean(c.RECAPTCHA_SECRET)) {
    throw new ConfigError("Invalid environment variables:\n  RECAPTCHA_SECRET: RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET must be set together");
  }
  const mailchimp = [c.MAILCHIMP_API_KEY, c.MAILCHIMP_SERVER_PREFIX, c.MAILCHIMP_AUDIENCE_ID].filter(Boolean).length;
  if (mailchimp !== 0 && mailchimp !== 3) {
    throw new ConfigError(
      "Invalid environment variables:\n  MAILCHIMP_AUDIENCE_ID: MAILCHIMP_API_KEY, MAILCHIMP_SERVER_PREFIX and MAILCHIMP_AUDIENCE_ID must be set together",
    );
  }
  if (Boolean(c.STRIPE_SECRET_KEY) !== Boolean(c.STRIPE_PUBLISHABLE_KEY)) {
    throw new ConfigError(
      "Invalid environment variables:\n  STRIPE_PUBLISHABLE_KEY: STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must be set together",
    );
  }
  const publicUrl = (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, "");
  return {
    ...c,
    PUBLIC_URL: publicUrl,
    BACKUP_DIR: c.BACKUP_DIR ?? path.join(c.DATA_DIR, "backups"),
    BACKUP_HOURS: c.BACKUP_HOURS ?? (c.DATABASE_URL ? 0 : 24),
    PAYMENTS: paymentsMode(c, publicUrl),
    MAIL: mailMode(c, publicUrl),
    TRUST_PROXY: trustProxy(c.TRUST_PROXY),
  };
}

/** The embedded site on this machine: a PUBLIC_URL on localhost or a loopback address. */
export function isLocalUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127(?:\.\d{1,3}){3}$/.test(host);
}

const invalid = (name: string, message: string) => new ConfigError(`Invalid environment variables:\n  ${name}: ${message}`);

/**
 * Stripe when its keys are set; the test mode only when chosen by name (PAYMENTS=test) or on
 * the embedded local site. A public site without keys refuses to start rather than hand out
 * tickets for a test card number.
 */
function paymentsMode(c: ParsedEnv, publicUrl: string): Config["PAYMENTS"] {
  const keyed = Boolean(c.STRIPE_SECRET_KEY && c.STRIPE_PUBLISHABLE_KEY);
  if (c.PAYMENTS === "stripe" && !keyed) throw invalid("STRIPE_SECRET_KEY", "PAYMENTS=stripe needs STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY");
  if (c.PAYMENTS) return c.PAYMENTS;
  if (keyed) return "stripe";
  if (isLocalUrl(publicUrl)) return "test";
  throw invalid(
    "STRIPE_SECRET_KEY",
    `PUBLIC_URL ${publicUrl} is public but STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY (and STRIPE_WEBHOOK_SECRET) are not set; set them, or set PAYMENTS=test to run the test mode on purpose (no card is charged and every page says so)`,
  );
}

/** SMTP when SMTP_URL is set; log-only mail only when chosen (MAIL=log) or on the local site. */
function mailMode(c: ParsedEnv, publicUrl: string): Config["MAIL"] {
  if (c.MAIL === "smtp" && !c.SMTP_URL) throw invalid("SMTP_URL", "MAIL=smtp needs SMTP_URL");
  if (c.MAIL) return c.MAIL;
  if (c.SMTP_URL) return "smtp";
  if (isLocalUrl(publicUrl)) return "log";
  throw invalid(
    "SMTP_URL",
    `PUBLIC_URL ${publicUrl} is public but SMTP_URL is not set, so no email (receipts, password resets, contact messages) would be sent; set SMTP_URL, or set MAIL=log to keep mail in the outbox and the log on purpose`,
  );
}

const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);
const IPV4_OR_SUBNET = /^\d{1,3}(?:\.\d{1,3}){3}(?:\/\d{1,2})?$/;
const IPV6_OR_SUBNET = /^[0-9a-f:]*:[0-9a-f:.]*(?:\/\d{1,3})?$/i;

/**
 * TRUST_PROXY, as Express's `trust proxy` setting takes it: unset or `false` (no proxy: the
 * socket's address is the client), a hop count (`1` behind one nginx), or a comma list of
 * addresses, subnets and the names loopback, linklocal, uniquelocal. `true` (trust every hop)
 * is refused: any client could then choose its own address by sending X-Forwarded-For.
 */
function trustProxy(value: string | undefined): Config["TRUST_PROXY"] {
  if (value === undefined || value === "false" || value === "0") return false;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(",").map((v) => v.trim()).filter(Boolean);
  const bad = entries.find((e) => !PROXY_NAMES.has(e) && !IPV4_OR_SUBNET.test(e) && !IPV6_OR_SUBNET.test(e));
  if (bad !== undefined || entries.length === 0) {
    throw invalid(
      "TRUST_PROXY",
      `must be a hop count (e.g. 1) or a comma list of addresses/subnets (e.g. 10.0.0.0/8, loopback); ${JSON.stringify(bad ?? value)} is neither${value === "true" ? " (true would let any client forge its address)" : ""}`,
    );
  }
  return entries;
}
