/**
 * Newsletter subscribers: one row per email (case-insensitive) whatever the number of sign-ups,
 * contact opt-ins and subscribe submissions; consent and source recorded with time. With
 * consent, a Mailchimp sync job is queued in the same transaction.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { subscribers } from "../db/schema";
import { enqueue } from "../outbox/outbox";

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

export function createNewsletter({ now = () => new Date() }: { now?: () => Date } = {}) {
  return {
    /** Upserts the subscriber (inside the caller's transaction when given one). */
    async record(db: Writer, input: SubscriptionInput): Promise<void> {
      const at = now();
      await db
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
        await enqueue(db, {
          kind: "mailchimp",
          payload: { email: input.email.trim(), firstName: input.firstName, lastName: input.lastName, consent: true },
        }, at);
      }
    },
  };
}

export type NewsletterService = ReturnType<typeof createNewsletter>;
