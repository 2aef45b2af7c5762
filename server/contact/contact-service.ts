/**
 * Contact messages: stored, then emailed to the museum through the outbox in the same
 * transaction (reply-to set to the sender, plain text only, so HTML in a message stays inert;
 * the visitor's name and message are quoted and labelled as theirs, so no line of it can pass
 * as the museum's).
 * The legacy client sends the same message to two endpoints; an identical message from the same
 * address within ten minutes is the same message, stored and emailed once.
 */
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { ContactInput } from "../../app/shared/contact-schemas";
import type { Database } from "../db/client";
import { contactMessages } from "../db/schema";
import type { NewsletterService } from "../newsletter/newsletter-service";
import { enqueue } from "../outbox/outbox";
import { contactEmail } from "../mail/templates";
import { transactionRetrying } from "../db/retrying";

const DUPLICATE_WINDOW_MS = 10 * 60_000;

export interface ContactDeps {
  db: Database;
  newsletter: NewsletterService;
  museumEmail: string;
  now?: () => Date;
  onEnqueued?: () => void;
}

export function createContactService({ db, newsletter, museumEmail, now = () => new Date(), onEnqueued }: ContactDeps) {
  return {
    /**
     * Records the message (once) and, when asked, queues its email (once) and the subscription;
     * inside `within` when given (an idempotent write's transaction, decision 025).
     */
    async submit(input: ContactInput, o: { email: boolean; subscription: boolean }, within: Database = db): Promise<{ id: string }> {
      const id = await transactionRetrying(within, async (tx) => {
        const since = new Date(now().getTime() - DUPLICATE_WINDOW_MS);
        const [existing] = await tx
          .select({ id: contactMessages.id, emailQueuedAt: contactMessages.emailQueuedAt })
          .from(contactMessages)
          .where(
            and(
              sql`lower(${contactMessages.email}) = ${input.email.toLowerCase()}`,
              eq(contactMessages.subject, input.subject),
              eq(contactMessages.message, input.message),
              gt(contactMessages.createdAt, since),
            ),
          )
          .limit(1);
        const row =
          existing ??
          (
            await tx
              .insert(contactMessages)
              .values({ ...input, createdAt: now() })
              .returning({ id: contactMessages.id, emailQueuedAt: contactMessages.emailQueuedAt })
          )[0];
        if (o.email && !row.emailQueuedAt) {
          const claimed = await tx
            .update(contactMessages)
            .set({ emailQueuedAt: now() })
            .where(and(eq(contactMessages.id, row.id), isNull(contactMessages.emailQueuedAt)))
            .returning({ id: contactMessages.id });
          if (claimed.length) {
            await enqueue(tx, { kind: "email", payload: contactEmail(museumEmail, input) }, now());
          }
        }
        if (o.subscription && input.subscribe) {
          await newsletter.record(tx, { email: input.email, firstName: input.firstName, lastName: input.lastName, consent: true, source: "contact" });
        }
        return row.id;
      });
      onEnqueued?.();
      return { id };
    },
  };
}

