/**
 * Newsletter subscribers: one row per email (case-insensitive) whatever the number of sign-ups,
 * contact opt-ins and subscribe submissions; consent and source recorded with time. With
 * consent, a Mailchimp sync job is queued in the same transaction.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { subscribers } from "../db/schema";
import { enqueue } from "../outbox/outbox";
import { transactionRetrying } from "../db/retrying";

export interface SubscriptionInput {
  email: string;
  firstName: string;
  lastName: string;
  consent: boolean;
  source: "signup" | "contact" | "subscribe";
  /** Queue the Mailchimp sync (default: when consent is given). */
  syncMailchimp?: boolean;
}

type Writer = Pick<Database, "insert">;

export interface NewsletterDeps {
  db: Database;
  now?: () => Date;
  /** Wakes the outbox worker after a sync job was queued. */
  onEnqueued?: () => void;
}

export function createNewsletter({ db, now = () => new Date(), onEnqueued }: NewsletterDeps) {
  /** Upserts the subscriber (inside the caller's transaction when given one). */
  async function record(writer: Writer, input: SubscriptionInput): Promise<void> {
    const at = now();
    await writer
      .insert(subscribers)
      .values({
        email: input.email.trim().toLowerCase(),
        firstName: input.firstName,
        lastName: input.lastName,
        consent: input.consent,
        consentAt: input.consent ? at : null,
        source: input.source,
        updatedAt: at,
      })
      .onConflictDoUpdate({
        target: subscribers.email,
        set: {
          firstName: input.firstName,
          lastName: input.lastName,
          // Consent once given stays until the person unsubscribes.
          consent: sql`${subscribers.consent} or ${input.consent}`,
          consentAt: input.consent ? sql`coalesce(${subscribers.consentAt}, ${at.toISOString()}::timestamptz)` : sql`${subscribers.consentAt}`,
          source: input.source,
          updatedAt: at,
        },
      });
    if (input.syncMailchimp ?? input.consent) {
      await enqueue(writer, {
        kind: "mailchimp",
        payload: { email: input.email.trim(), firstName: input.firstName, lastName: input.lastName, consent: true },
      }, at);
    }
  }

  /**
   * The subscribe use case, for the Subscribe page and the API alike: the subscriber is stored
   * (and the Mailchimp sync queued with consent) in one transaction before it returns; inside
   * `within` when given (an idempotent write's transaction, decision 025).
   */
  async function subscribe(input: Omit<SubscriptionInput, "source"> & { source?: SubscriptionInput["source"] }, within: Database = db): Promise<void> {
    const subscription: SubscriptionInput = { ...input, source: input.source ?? "subscribe" };
    await transactionRetrying(within, (tx) => record(tx, subscription));
    if (subscription.syncMailchimp ?? subscription.consent) onEnqueued?.();
  }

  return { record, subscribe };
}

export type NewsletterService = ReturnType<typeof createNewsletter>;
