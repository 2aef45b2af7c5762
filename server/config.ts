/**
 * Every environment variable the server reads, parsed once with Zod. A wrong value stops
 * start-up with a message naming the variable. Nothing else reads process.env.
 */
import { z } from "zod";

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
  SHOP_URL: z.url().default("https://shop.pittsburghsportsmuseum.example"),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_PUBLISHABLE_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_BASE: z.url().optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, "must start with smtp:// or smtps://").optional(),
  MAIL_FROM: z.string().default("Pittsburgh Sports Museum <hello@pittsburghsportsmuseum.example>"),
  CONTACT_EMAIL_TO: z.email().default("info@pittsburghsportsmuseum.example"),
  MAILCHIMP_API_KEY: optionalString,
  MAILCHIMP_SERVER_PREFIX: optionalString,
  MAILCHIMP_AUDIENCE_ID: optionalString,
  RECAPTCHA_SITE_KEY: optionalString,
  RECAPTCHA_SECRET: optionalString,
  RECAPTCHA_MIN_SCORE: z.coerce.number().min(0).max(1).default(0.5),
  RECAPTCHA_VERIFY_URL: z.url().default("https://www.google.com/recaptcha/api/siteverify"),
  MAILCHIMP_API_BASE: z.url().optional(),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, "must start with redis:// or rediss://").optional(),
  SEED_DEMO: booleanFromEnv.optional(),
  /** How long each instance may serve collection reads from memory (0 = always ask the database). */
  CATALOG_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  /** How long each instance serves a rendered page to visitors who are not signed in (0 = off). */
  PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Mounts /__error-probe, a route that throws, so tests can see the error fallback. */
  ENABLE_ERROR_PROBE: booleanFromEnv.default(false),
  /** Loosens rate limits for automated test runs; never set in production. */
  RATE_LIMIT_RELAXED: booleanFromEnv.default(false),
});

export type Config = z.infer<typeof envSchema> & { PUBLIC_URL: string };

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
  return { ...c, PUBLIC_URL: (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, "") };
}
