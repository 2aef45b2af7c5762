/**
 * The database schema (PostgreSQL dialect, shared by PGlite and PostgreSQL).
 * `drizzle-kit generate` turns changes here into SQL migrations under drizzle/.
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/** Publication (decision 032): null = draft; a future time = scheduled; a past time = published. */
const publishAt = () => timestamp("publish_at", { withTimezone: true }).default(sql`'1970-01-01T00:00:00Z'`);
const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
/**
 * When a collection record last changed (sitemap lastmod, share card cache keys, decision 027):
 * the database's clock, set by drizzle on every update() and upsert of the row.
 */
const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => sql`now()`);
/**
 * The record's version (migration 0017, decision 029): 1 when made, one more on each console
 * save. Edit forms carry the version they started from; a save against another one is refused.
 */
const version = () => integer("version").notNull().default(1);

// ---- collection ---------------------------------------------------------------------------

export const teams = pgTable("teams", {
  id: uuid("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  league: text("league").notNull(),
  logo: text("logo").notNull(),
  headline: text("headline").notNull(),
  description: text("description").notNull(),
  sortOrder: integer("sort_order").notNull().default(0),
  updatedAt: updatedAt(),
  version: version(),
});

export const categories = pgTable("categories", {
  id: uuid("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  categoryName: text("category_name").notNull(),
  sortOrder: integer("sort_order").notNull().default(0),
  updatedAt: updatedAt(),
  version: version(),
});

export const exhibits = pgTable(
  "exhibits",
  {
    id: uuid("id").primaryKey(),
    slug: text("slug").notNull().unique(),
    teamId: uuid("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    categoryId: uuid("category_id")
      .notNull()
      .references(() => categories.id, { onDelete: "restrict" }),
    title: text("title").notNull(),
    shortTitle: text("short_title").notNull(),
    /** Plain text (the 500-character cut, the API, search); derived from description_html when that is set. */
    description: text("description").notNull(),
    /** Rich text from the console, sanitized on the server (no script can be stored); null = plain description. */
    descriptionHtml: text("description_html"),
    thumbnail: text("thumbnail").notNull(),
    thumbnailAlt: text("thumbnail_alt").notNull(),
    matchingPhoto: text("matching_photo"),
    matchingPhotoAlt: text("matching_photo_alt"),
    active: boolean("active").notNull().default(true),
    year: integer("year").notNull(),
    favoriteStory: boolean("favorite_story").notNull().default(false),
    /** When the record appears for visitors and members; null = a draft (migration 0020, decision 032). */
    publishAt: publishAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    index("exhibits_publish_at_idx").on(t.publishAt),
    index("exhibits_team_category_idx").on(t.teamId, t.categoryId, t.active),
    index("exhibits_favorite_idx").on(t.favoriteStory),
    index("exhibits_title_idx").on(t.title),
    index("exhibits_year_idx").on(t.year),
    // The console's list: counts per category, and its "contains" search on titles.
    index("exhibits_category_idx").on(t.categoryId),
    index("exhibits_title_trgm_idx").using("gin", t.title.op("gin_trgm_ops")).with({ fastupdate: false }),
    index("exhibits_short_title_trgm_idx").using("gin", t.shortTitle.op("gin_trgm_ops")).with({ fastupdate: false }),
  ],
);

export const exhibitPhotos = pgTable(
  "exhibit_photos",
  {
    exhibitId: uuid("exhibit_id")
      .notNull()
      .references(() => exhibits.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    file: text("file").notNull(),
    alt: text("alt").notNull(),
  },
  (t) => [primaryKey({ columns: [t.exhibitId, t.position] })],
);

export const enshrinees = pgTable("enshrinees", {
  id: uuid("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  fullName: text("full_name").notNull(),
  firstName: text("first_name").notNull(),
  lastName: text("last_name").notNull(),
  /** Plain text (search, the page description); derived from biography_html when that is set. */
  biography: text("biography").notNull(),
  /** When the record appears for visitors and members; null = a draft (migration 0020, decision 032). */
  publishAt: publishAt(),
  /** Rich text from the console, sanitized on the server like exhibit texts; null = plain biography. */
  biographyHtml: text("biography_html"),
  /** The portrait's media file (under portraits/, public: decision 033); null = none. */
  portrait: text("portrait"),
  /** The portrait's description for people who cannot see it. */
  portraitAlt: text("portrait_alt"),
  updatedAt: updatedAt(),
  version: version(),
}, (t) => [index("enshrinees_publish_at_idx").on(t.publishAt)]);

export const enshrineeExhibits = pgTable(
  "enshrinee_exhibits",
  {
    enshrineeId: uuid("enshrinee_id")
      .notNull()
      .references(() => enshrinees.id, { onDelete: "cascade" }),
    exhibitId: uuid("exhibit_id")
      .notNull()
      .references(() => exhibits.id, { onDelete: "cascade" }),
  },
  // By exhibit too: an exhibit's enshrinees (search keeps their names with the exhibit).
  (t) => [primaryKey({ columns: [t.enshrineeId, t.exhibitId] }), index("enshrinee_exhibits_exhibit_idx").on(t.exhibitId)],
);

/** The home page carousel: five slides per variant (desktop and mobile). */
export const bannerSlides = pgTable(
  "banner_slides",
  {
    /** The slide's identity (migration 0023): its edit form names it, and versions follow it when it moves. */
    id: uuid("id").notNull().defaultRandom(),
    variant: text("variant", { enum: ["desktop", "mobile"] }).notNull(),
    position: integer("position").notNull(),
    file: text("file").notNull(),
    alt: text("alt").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    /** When the record appears for visitors and members; null = a draft (migration 0020, decision 032). */
    publishAt: publishAt(),
  },
  (t) => [primaryKey({ columns: [t.variant, t.position] }), uniqueIndex("banner_slides_id_idx").on(t.id)],
);

// ---- accounts -----------------------------------------------------------------------------

/** Account roles: members (and visitors' accounts) and the two staff roles (decision 015). */
export const USER_ROLES = ["member", "curator", "admin"] as const;

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    emailOptIn: boolean("email_opt_in").notNull().default(false),
    termsAcceptedAt: timestamp("terms_accepted_at", { withTimezone: true }),
    /** Last calendar day (museum time zone) on which the ticket is valid; null = never paid. */
    validThrough: date("valid_through", { mode: "string" }),
    /** Staff roles open the console (/admin): admin does everything, curator the collection and the inbox. */
    role: text("role", { enum: USER_ROLES }).notNull().default("member"),
    /**
     * Set when an admin deactivated this staff account: no console; no sessions either, unless
     * the account is also a member's (then it acts as a member again: decision 049).
     */
    deactivatedAt: timestamp("deactivated_at", { withTimezone: true }),
    /**
     * The account is (also) a member's own: signed up, or a member who accepted a staff
     * invitation. Whatever its staff role, it stays under Members with its ticket and payments,
     * and deactivating its staff access leaves its member access as it was (migration 0026).
     */
    memberAccount: boolean("member_account").notNull().default(false),
    /** Whether the ticket's expiry reminders are sent (decision 017, section 5); off from /account or the email's link. */
    reminderEmails: boolean("reminder_emails").notNull().default(true),
    /**
     * When the account's sessions were last ended by the person or for them (logout, password
     * change or reset): a sign-up's answer replayed after that starts no session (decision 047).
     */
    sessionsEndedAt: timestamp("sessions_ended_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("users_email_lower_idx").on(sql`lower(${t.email})`),
    index("users_role_idx").on(t.role),
    // The console's member search (prefixes of names and email) and sorts (decision 015).
    index("users_email_prefix_idx").on(sql`lower(${t.email}) text_pattern_ops`),
    index("users_first_name_prefix_idx").on(sql`lower(${t.firstName}) text_pattern_ops`),
    index("users_last_name_prefix_idx").on(sql`lower(${t.lastName}) text_pattern_ops`),
    index("users_valid_through_idx").on(t.validThrough),
    index("users_created_idx").on(t.createdAt),
    index("users_last_name_idx").on(t.lastName),
  ],
);

/** A member's own account, whatever its staff role: what Members lists and a complimentary ticket is for. */
export const isMemberAccount = () => sql`(${users.role} = 'member' or ${users.memberAccount})`;

export const sessions = pgTable(
  "sessions",
  {
    /** SHA-256 of the token held in the cookie; the token itself is never stored. */
    tokenHash: text("token_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    /** Last request seen on this session (kept for staff sessions, which end after 30 minutes idle). */
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    /** When the password was last entered on this session (sign-in, or asked again before a sensitive action). */
    passwordAt: timestamp("password_at", { withTimezone: true }).notNull().defaultNow(),
    /** The browser's User-Agent when the session started (cut to 300 characters), for the person's list of sessions. */
    userAgent: text("user_agent"),
    /** The client address the session was last seen from, for the person's list of sessions (decision 055). */
    clientIp: text("client_ip"),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

// ---- staff sign-in: second factors, passkeys, known devices (decision 055) -----------------

/** An authenticator app (TOTP, RFC 6238) set up on an account: its secret, encrypted with SECRETS_KEY. */
export const totpFactors = pgTable("totp_factors", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** AES-256-GCM of the base32 secret under SECRETS_KEY (server/accounts/secret-box.ts). */
  secretSealed: text("secret_sealed").notNull(),
  /** The last 30-second step whose code was accepted: a code is accepted once, and no older one after it. */
  lastStep: bigint("last_step", { mode: "number" }).notNull().default(0),
  createdAt: createdAt(),
});

/** Single-use recovery codes, shown once when the app is set up; only their hashes are kept. */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    codeHash: text("code_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("recovery_codes_user_idx").on(t.userId)],
);

/** A passkey (WebAuthn credential) of an account: a way to sign in, and a second factor for staff. */
export const passkeys = pgTable(
  "passkeys",
  {
    /** The credential's id, base64url. */
    id: text("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The COSE public key, base64url. */
    publicKey: text("public_key").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    transports: text("transports"),
    /** What the person calls it ("Work laptop"), or the browser it was made in. */
    name: text("name").notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [index("passkeys_user_idx").on(t.userId)],
);

/** Browsers a staff member has finished a sign-in on: a sign-in from any other is asked for an emailed code while the account has no app or passkey. */
export const knownDevices = pgTable(
  "known_devices",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Keyed hash of the device cookie's token. */
    deviceHash: text("device_hash").notNull(),
    createdAt: createdAt(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceHash] })],
);

/**
 * A sign-in between its password and its second factor (or a passkey's challenge before anyone
 * is known): held by a short-lived cookie, ended when it succeeds, expires or is refused too often.
 */
export const signInSteps = pgTable(
  "sign_in_steps",
  {
    /** Keyed hash of the step cookie's token. */
    tokenHash: text("token_hash").primaryKey(),
    /** Null for a passkey sign-in not yet tied to an account. */
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** "sign-in" (after the password), "passkey" (a passkey sign-in), "register" (a passkey being added), "confirm" (re-authentication). */
    purpose: text("purpose", { enum: ["sign-in", "passkey", "register", "confirm"] }).notNull(),
    /** The WebAuthn challenge issued for this step, base64url. */
    challenge: text("challenge"),
    /** SHA-256 of the emailed code, when one was sent. */
    emailCodeHash: text("email_code_hash"),
    emailSentAt: timestamp("email_sent_at", { withTimezone: true }),
    /** Wrong codes entered on this step. */
    failures: integer("failures").notNull().default(0),
    /** Where the sign-in goes once done (a console address). */
    redirectTo: text("redirect_to"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("sign_in_steps_expires_idx").on(t.expiresAt)],
);

/** Settings the museum's admins change in the console (the staff second-factor requirement). */
export const siteSettings = pgTable("site_settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  updatedBy: text("updated_by"),
});

/** The first columns of every table of emailed one-time links: the token's hash and the account it is for. */
const emailedTokenColumns = () => ({
  /** SHA-256 of the emailed token; the token itself is never stored. */
  tokenHash: text("token_hash").primaryKey(),
  userId: uuid("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
});

export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    ...emailedTokenColumns(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("password_reset_tokens_user_idx").on(t.userId)],
);

/**
 * A staff invitation sent to a member's own account (decision 049): the role is hers
 * only once she follows the link signed in as herself and accepts; until then nothing changes.
 */
export const staffInvitations = pgTable(
  "staff_invitations",
  {
    ...emailedTokenColumns(),
    role: text("role", { enum: ["curator", "admin"] }).notNull(),
    invitedBy: text("invited_by").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** Accepted, withdrawn, or replaced by a later invitation. */
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("staff_invitations_user_idx").on(t.userId)],
);

/**
 * A requested change of an account's email address (decision 017): it takes effect only when the
 * link emailed to the new address is opened by the same account. Single use, expiring.
 */
export const emailChangeTokens = pgTable(
  "email_change_tokens",
  {
    ...emailedTokenColumns(),
    newEmail: text("new_email").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("email_change_tokens_user_idx").on(t.userId)],
);

// ---- payments -----------------------------------------------------------------------------

export const payments = pgTable(
  "payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Null once the account was deleted: the payment is kept, anonymized, for the books (decision 017). */
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    provider: text("provider", { enum: ["test", "stripe"] }).notNull(),
    /** The provider's payment id (PaymentIntent id): one ticket per payment, whatever retries. */
    providerPaymentId: text("provider_payment_id").notNull().unique(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull().default("usd"),
    status: text("status", { enum: ["succeeded", "refunded"] }).notNull(),
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    daysGranted: integer("days_granted").notNull(),
    validThroughAfter: date("valid_through_after", { mode: "string" }).notNull(),
    receiptEmail: text("receipt_email").notNull(),
    createdAt: createdAt(),
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
  },
  (t) => [index("payments_user_idx").on(t.userId)],
);

/**
 * Payments that did not buy a ticket (an amount or currency other than the ticket's, an account
 * that does not exist), kept for staff to refund or match by hand. One row per payment and kind.
 */
export const paymentIncidents = pgTable(
  "payment_incidents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    provider: text("provider", { enum: ["test", "stripe"] }).notNull(),
    providerPaymentId: text("provider_payment_id").notNull(),
    kind: text("kind", { enum: ["amount_mismatch", "unknown_account", "unknown_gift"] }).notNull(),
    details: jsonb("details").notNull(),
    createdAt: createdAt(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("payment_incidents_payment_kind_idx").on(t.providerPaymentId, t.kind)],
);

/** Stripe webhook events already handled: a replay is acknowledged and ignored. */
export const processedWebhookEvents = pgTable("processed_webhook_events", {
  eventId: text("event_id").primaryKey(),
  type: text("type").notNull(),
  processedAt: timestamp("processed_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The first answer to a write sent with an Idempotency-Key (decision 025), written in the
 * transaction of the write it records: a retry with the same key gets this answer back and
 * writes nothing. Scoped per route and owner (the account id when signed in, '' when not);
 * purged by housekeeping after 24 h.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    route: text("route").notNull(),
    owner: text("owner").notNull(),
    key: text("key").notNull(),
    /** HMAC of the request body: the same key with another body is refused (422). */
    fingerprint: text("fingerprint").notNull(),
    status: integer("status").notNull(),
    body: jsonb("body").notNull(),
    /** What the answer created, when a replay needs it (the account id of a sign-up, to sign in again). */
    ref: text("ref"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.route, t.owner, t.key] }), index("idempotency_keys_created_idx").on(t.createdAt)],
);

// ---- messages, newsletter, outbox -----------------------------------------------------------

export const contactMessages = pgTable("contact_messages", {
  id: uuid("id").primaryKey().defaultRandom(),
  firstName: text("first_name").notNull(),
  lastName: text("last_name").notNull(),
  email: text("email").notNull(),
  subject: text("subject").notNull(),
  message: text("message").notNull(),
  subscribe: boolean("subscribe").notNull(),
  /** When the email to the museum was queued; a message is emailed at most once. */
  emailQueuedAt: timestamp("email_queued_at", { withTimezone: true }),
  createdAt: createdAt(),
  /** The console's inbox state (decision 015). */
  status: text("status", { enum: ["new", "answered", "archived"] }).notNull().default("new"),
}, (t) => [index("contact_messages_created_idx").on(t.createdAt), index("contact_messages_status_idx").on(t.status, t.createdAt)]);

export const subscribers = pgTable(
  "subscribers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Stored lower-cased: one row per address whatever its spelling. */
    email: text("email").notNull().unique(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    consent: boolean("consent").notNull(),
    consentAt: timestamp("consent_at", { withTimezone: true }),
    source: text("source", { enum: ["signup", "contact", "subscribe"] }).notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("subscribers_email_lower", sql`${t.email} = lower(${t.email})`),
    index("subscribers_email_prefix_idx").on(sql`${t.email} text_pattern_ops`),
    // The console's search by the beginning of a name, as for members.
    index("subscribers_first_name_prefix_idx").on(sql`lower(${t.firstName}) text_pattern_ops`),
    index("subscribers_last_name_prefix_idx").on(sql`lower(${t.lastName}) text_pattern_ops`),
    index("subscribers_created_idx").on(t.createdAt),
  ],
);

/** Durable jobs (emails, Mailchimp calls) written in the same transaction as their data. */
export const outbox = pgTable(
  "outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind", { enum: ["email", "mailchimp", "password-reset", "reminder", "gift-delivery"] }).notNull(),
    payload: jsonb("payload").notNull(),
    // 'sending': claimed by a worker under a lease, outcome not yet written (decision 021).
    status: text("status", { enum: ["pending", "sending", "done", "dead"] }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastError: text("last_error"),
    createdAt: createdAt(),
    doneAt: timestamp("done_at", { withTimezone: true }),
  },
  (t) => [
    index("outbox_due_idx").on(t.status, t.nextAttemptAt),
    // Each subscriber's latest Mailchimp job, for the console's sync state (decision 015).
    index("outbox_mailchimp_email_idx").on(sql`lower(${t.payload}->>'email')`, t.createdAt).where(sql`${t.kind} = 'mailchimp'`),
  ],
);

/**
 * Expiry reminders queued (decision 017, section 5): one row per account, ticket period (its last
 * day) and reminder (days before the last day; negative = after it). The primary key makes each
 * reminder of a period go into the outbox once, whatever the retries, restarts and instances; a
 * renewal moves the last day and so starts a new period.
 */
export const ticketReminders = pgTable(
  "ticket_reminders",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    lastDay: date("last_day", { mode: "string" }).notNull(),
    offsetDays: integer("offset_days").notNull(),
    queuedAt: timestamp("queued_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.lastDay, t.offsetDays] })],
);

/**
 * Counters for rate limits, shared by every instance: fixed windows (hits until reset_at), and
 * slow-downs (attempts, refused until blocked_until). A row means nothing after reset_at.
 */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  hits: integer("hits").notNull(),
  resetAt: timestamp("reset_at", { withTimezone: true }).notNull(),
  blockedUntil: timestamp("blocked_until", { withTimezone: true }),
});

// ---- staff console --------------------------------------------------------------------------

/**
 * Every change made in the console, written in the transaction that makes it: who, when, which
 * entity, and the record before and after (null for a creation or a deletion).
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actorId: uuid("actor_id").references(() => users.id, { onDelete: "set null" }),
    /** The staff member's email at the time (kept if the account goes). */
    actorEmail: text("actor_email").notNull(),
    action: text("action").notNull(),
    entityType: text("entity_type").notNull(),
    entityId: text("entity_id"),
    summary: text("summary").notNull(),
    before: jsonb("before"),
    after: jsonb("after"),
  },
  (t) => [
    index("audit_log_at_idx").on(t.at),
    index("audit_log_actor_idx").on(t.actorId, t.at),
    index("audit_log_entity_idx").on(t.entityType, t.at),
    /** A record's versions (server/catalog/record-versions.ts, decision 030). */
    index("audit_log_entity_history_idx").on(t.entityType, t.entityId, t.at),
  ],
);

// ---- search (decision 014) ---------------------------------------------------------

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/** The words visitors may search: titles, short titles and names above team and category names. */
const PUBLIC_WORDS = sql`setweight(to_tsvector('museum_search', title || ' ' || alt_title || ' ' || names), 'A') || setweight(to_tsvector('museum_search', team_names || ' ' || category_name), 'B')`;

/**
 * One row per searchable record: every active exhibit and every enshrinee, kept by triggers on
 * the collection's tables (drizzle/0005_search.sql), so any change is searchable when it commits.
 * Visitors are searched through `public_vector` only; `member_vector` adds the member-only text
 * (descriptions, biographies). `museum_search` is English with accents removed (unaccent).
 */
export const searchDocuments = pgTable(
  "search_documents",
  {
    /** The exhibit's or the enshrinee's id. */
    id: uuid("id").primaryKey(),
    kind: text("kind", { enum: ["exhibit", "enshrinee"] }).notNull(),
    /** Exhibit title, or the enshrinee's full name. */
    title: text("title").notNull(),
    /** Exhibit short title, or the enshrinee's first and last name. */
    altTitle: text("alt_title").notNull().default(""),
    /** The enshrinees an exhibit is linked to (their names are public, on the Wall of Fame). */
    names: text("names").notNull().default(""),
    /** The exhibit's team, or the teams of the enshrinee's exhibits. */
    teamIds: uuid("team_ids").array().notNull().default(sql`'{}'::uuid[]`),
    teamNames: text("team_names").notNull().default(""),
    categoryId: uuid("category_id"),
    categoryName: text("category_name").notNull().default(""),
    /** The exhibit's year, or the earliest year of the enshrinee's exhibits. */
    year: integer("year"),
    favoriteStory: boolean("favorite_story").notNull().default(false),
    /** Member-only: the exhibit's description or the enshrinee's biography. */
    body: text("body").notNull().default(""),
    /** The record's publish time (drafts have no document): a search keeps the documents whose time has passed. */
    publishAt: timestamp("publish_at", { withTimezone: true }).notNull().default(sql`'1970-01-01T00:00:00Z'`),
    decade: integer("decade").generatedAlwaysAs(sql`(year / 10) * 10`),
    publicVector: tsvector("public_vector").notNull().generatedAlwaysAs(PUBLIC_WORDS),
    memberVector: tsvector("member_vector")
      .notNull()
      .generatedAlwaysAs(sql`${PUBLIC_WORDS} || setweight(to_tsvector('museum_search', body), 'C')`),
    /** Titles and names, lower case without accents: suggestions and the typo fallback (pg_trgm). */
    suggestText: text("suggest_text")
      .notNull()
      .generatedAlwaysAs(sql`lower(museum_unaccent(title || ' ' || alt_title))`),
    /** The same words unstemmed, for suggestions by word beginnings ("clem" finds Clemente). */
    suggestVector: tsvector("suggest_vector")
      .notNull()
      .generatedAlwaysAs(sql`to_tsvector('simple', lower(museum_unaccent(title || ' ' || alt_title)))`),
    /**
     * The document's filter values (kind, teams, category, decade, favorite story) as one number,
     * a row of `search_facet_groups`, set by a trigger (drizzle/0012): facet counts group the hits
     * by this one integer instead of by five values, one of them an array.
     */
    facetGroup: integer("facet_group").notNull(),
  },
  (t) => [
    // fastupdate off: PGlite runs no autovacuum, so a pending list would only grow and slow every search.
    index("search_documents_public_idx").using("gin", t.publicVector).with({ fastupdate: false }),
    index("search_documents_member_idx").using("gin", t.memberVector).with({ fastupdate: false }),
    index("search_documents_suggest_words_idx").using("gin", t.suggestVector).with({ fastupdate: false }),
  ],
);

/**
 * Each combination of filter values that a search document has or had (a few thousand at a real
 * museum's scale): what `search_documents.facet_group` points to. Rows are only added (by the
 * trigger that sets `facet_group`); one no document uses any more is never counted, since counts
 * come from the documents.
 */
export const searchFacetGroups = pgTable(
  "search_facet_groups",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    kind: text("kind", { enum: ["exhibit", "enshrinee"] }).notNull(),
    teamIds: uuid("team_ids").array().notNull(),
    categoryId: uuid("category_id"),
    decade: integer("decade"),
    favoriteStory: boolean("favorite_story").notNull(),
  },
  (t) => [unique("search_facet_groups_values_key").on(t.kind, t.teamIds, t.categoryId, t.decade, t.favoriteStory).nullsNotDistinct()],
);

/**
 * Every word of the titles and names of the search documents (public words only, so a correction
 * never shows a word of a member-only text), for "Did you mean": a word not found is replaced by
 * the most similar one here (pg_trgm) whose `visible_from` has passed. Kept by triggers on
 * search_documents (migration 0029): a word goes when no document has it any more, and
 * `visible_from` is the earliest publish time of the documents that have it (decision 047).
 */
export const searchWords = pgTable(
  "search_words",
  {
    word: text("word").primaryKey(),
    visibleFrom: timestamp("visible_from", { withTimezone: true }).notNull().default(sql`'1970-01-01T00:00:00Z'`),
  },
  (t) => [index("search_words_trgm_idx").using("gin", t.word.op("gin_trgm_ops")).with({ fastupdate: false })],
);

/** Each search document's public words with its publish time: what search_words is settled from (migration 0029). */
export const searchDocumentWords = pgTable(
  "search_document_words",
  {
    word: text("word").notNull(),
    documentId: uuid("document_id").notNull(),
    publishAt: timestamp("publish_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.word, t.documentId] }), index("search_document_words_document_idx").on(t.documentId)],
);

/** Replies sent from the console to a contact message, kept with it. */
export const contactReplies = pgTable(
  "contact_replies",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    messageId: uuid("message_id")
      .notNull()
      .references(() => contactMessages.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    /** The staff member's email at the time. */
    sentBy: text("sent_by").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("contact_replies_message_idx").on(t.messageId)],
);

/** Tickets given by staff without payment, with the reason. */
export const complimentaryTickets = pgTable(
  "complimentary_tickets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    days: integer("days").notNull(),
    reason: text("reason").notNull(),
    grantedBy: text("granted_by").notNull(),
    validThroughAfter: date("valid_through_after", { mode: "string" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("complimentary_tickets_user_idx").on(t.userId)],
);

// ---- gift tickets (decision 018) ---------------------------------------------------

export const GIFT_STATUSES = ["unpaid", "paid", "redeemed", "refunded"] as const;

/**
 * A ticket bought for someone else. Written as a draft (unpaid) with the buyer's and the
 * recipient's details, paid once (by payment id, whichever of the browser and the webhook comes
 * first), delivered on its date by the outbox (the redeem token is made then, stored as its hash,
 * valid one year), redeemed once by one account. A refund before redemption revokes it.
 */
export const gifts = pgTable(
  "gifts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The signed-in buyer's account (null for a buyer without one, or once it is deleted). */
    buyerUserId: uuid("buyer_user_id").references(() => users.id, { onDelete: "set null" }),
    buyerFirstName: text("buyer_first_name").notNull(),
    buyerLastName: text("buyer_last_name").notNull(),
    buyerEmail: text("buyer_email").notNull(),
    recipientFirstName: text("recipient_first_name").notNull(),
    recipientLastName: text("recipient_last_name").notNull(),
    recipientEmail: text("recipient_email").notNull(),
    message: text("message").notNull().default(""),
    /** The calendar day (museum time zone) the recipient's email goes out. */
    deliverOn: date("deliver_on", { mode: "string" }).notNull(),
    status: text("status", { enum: GIFT_STATUSES }).notNull().default("unpaid"),
    provider: text("provider", { enum: ["test", "stripe"] }),
    providerPaymentId: text("provider_payment_id").unique(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull().default("usd"),
    daysGranted: integer("days_granted").notNull(),
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    /** SHA-256 of the redeem token emailed on the delivery date; the token itself is never stored. */
    tokenHash: text("token_hash").unique(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    tokenExpiresAt: timestamp("token_expires_at", { withTimezone: true }),
    redeemedBy: uuid("redeemed_by").references(() => users.id, { onDelete: "set null" }),
    redeemedAt: timestamp("redeemed_at", { withTimezone: true }),
    /** The redeemer's last valid day after the gift was added (a refund takes the days back). */
    validThroughAfter: date("valid_through_after", { mode: "string" }),
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("gifts_buyer_idx").on(t.buyerUserId), index("gifts_created_idx").on(t.createdAt), index("gifts_status_idx").on(t.status, t.createdAt)],
);

// ---- media originals in PostgreSQL (decision 024) -------------------------------------------

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/** An uploaded or seeded original (its key is the path the image routes use), stored with DATABASE_URL. */
export const mediaObjects = pgTable("media_objects", {
  key: text("key").primaryKey(),
  size: integer("size").notNull(),
  /** Hex SHA-256 of the bytes: part of every rendition's cache key and ETag, the same on every instance. */
  sha256: text("sha256").notNull(),
  chunks: integer("chunks").notNull(),
  createdAt: createdAt(),
});

/** The bytes of a media object in order, about 256 KB each, so no statement carries a whole file. */
export const mediaChunks = pgTable(
  "media_chunks",
  {
    key: text("key")
      .notNull()
      .references(() => mediaObjects.key, { onDelete: "cascade", onUpdate: "cascade" }),
    seq: integer("seq").notNull(),
    data: bytea("data").notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.seq] })],
);

/**
 * The media library (decision 061): each image the media store holds, with its pixel size and
 * file size read from the file and its own description (alt text), which a form that picks the
 * image starts from. Rows follow the store: added when the library reads it, removed with the file.
 */
export const mediaLibrary = pgTable(
  "media_library",
  {
    key: text("key").primaryKey(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    bytes: integer("bytes").notNull(),
    alt: text("alt").notNull().default(""),
    addedAt: timestamp("added_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("media_library_added_at_idx").on(t.addedAt)],
);

// ---- the console's trash (decision 031) -------------------------------------------------------

export const TRASH_KINDS = ["team", "category", "exhibit", "enshrinee", "banner"] as const;
export type TrashKind = (typeof TRASH_KINDS)[number];

/**
 * A deleted collection record waiting to be restored or purged: its row and its dependants
 * (photos, enshrinee links) as a JSON snapshot. The real rows are gone, so no reader filters.
 */
export const trash = pgTable(
  "trash",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind", { enum: TRASH_KINDS }).notNull(),
    /** The record's own id (a banner slide: its variant). */
    recordId: text("record_id").notNull(),
    /** What the Trash page calls it. */
    label: text("label").notNull(),
    snapshot: jsonb("snapshot").notNull(),
    /** Media keys only this record named: deleted when the entry is purged, never before. */
    media: jsonb("media").$type<string[]>().notNull().default([]),
    deletedAt: timestamp("deleted_at", { withTimezone: true }).notNull(),
    deletedBy: text("deleted_by").notNull(),
  },
  (t) => [index("trash_deleted_at_idx").on(t.deletedAt), index("trash_record_idx").on(t.kind, t.recordId)],
);

// ---- backups (decision 046) --------------------------------------------------------

export const BACKUP_REASONS = ["manual", "scheduled", "before-upgrade"] as const;
export type BackupReason = (typeof BACKUP_REASONS)[number];

/** One backup taken on this site and how it ended; rows describe files on this machine, so backups do not carry them. */
export const backupRuns = pgTable(
  "backup_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    reason: text("reason", { enum: BACKUP_REASONS }).notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    status: text("status", { enum: ["running", "ok", "failed"] }).notNull(),
    file: text("file"),
    bytes: bigint("bytes", { mode: "number" }),
    error: text("error"),
  },
  (t) => [index("backup_runs_started_at_idx").on(t.startedAt)],
);

/**
 * A bulk action's undo (migration 0027): the records one Apply changed, each with what
 * to put back (and the version the action left, so a record changed since is not undone), or
 * the trash entries a bulk "Move to the trash" made. Kept until housekeeping's next pass after
 * its undo window.
 */
export const bulkBatches = pgTable(
  "bulk_batches",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actorId: uuid("actor_id").references(() => users.id, { onDelete: "cascade" }),
    entity: text("entity", { enum: ["exhibit", "enshrinee"] }).notNull(),
    action: text("action").notNull(),
    items: jsonb("items").notNull(),
    undoneAt: timestamp("undone_at", { withTimezone: true }),
  },
  (t) => [index("bulk_batches_at_idx").on(t.at)],
);

// ---- visit counts (decision 060) ------------------------------------------------------------

/**
 * Page views per public page and museum day (migration 0031): how many, never who. Added to in
 * batches from each process's memory (server/visits/visit-counter.ts); a view of an exhibit is
 * counted under its address on its team, whichever address the visitor came by.
 */
export const visitCounts = pgTable(
  "visit_counts",
  {
    day: date("day", { mode: "string" }).notNull(),
    path: text("path").notNull(),
    views: integer("views").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.path] }), index("visit_counts_path_day_idx").on(t.path, t.day)],
);

/** Every page's views of a museum day added up, written with `visit_counts` (the Overview's chart reads 365 rows for a year). */
export const visitDays = pgTable("visit_days", {
  day: date("day", { mode: "string" }).primaryKey(),
  views: integer("views").notNull().default(0),
});

/** Each page's views of a calendar month (`month`: its first day), written with `visit_counts`: a long period's most viewed pages read whole months here. */
export const visitMonths = pgTable(
  "visit_months",
  {
    month: date("month", { mode: "string" }).notNull(),
    path: text("path").notNull(),
    views: integer("views").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.month, t.path] })],
);

/** Searches per museum day: those that found something in one row a day (query ''), those that found nothing by their normalized words. */
export const searchCounts = pgTable(
  "search_counts",
  {
    day: date("day", { mode: "string" }).notNull(),
    found: boolean("found").notNull(),
    query: text("query").notNull(),
    searches: integer("searches").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.found, t.query] })],
);
