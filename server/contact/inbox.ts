/**
 * The contact inbox: messages by date and subject, their status (new, answered, archived), and
 * replies sent from the console through the outbox. A reply, its email, the status change and
 * the audit row commit together; the reply is kept with the message.
 */
import { and, asc, count, desc, eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import { contactMessages, contactReplies } from "../db/schema";
import { oneLine } from "../outbox/email-quoting";
import { enqueue } from "../outbox/outbox";
import { recordAudit, type Actor, type Saved } from "../audit/audit-trail";
import { contactReplyEmail } from "../mail/templates";
import { transactionRetrying } from "../db/retrying";

export const MESSAGE_STATUSES = ["new", "answered", "archived"] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export interface InboxDeps {
  db: Database;
  museumEmail: string;
  now?: () => Date;
  onEnqueued?: () => void;
}

export function createInbox({ db, museumEmail, now = () => new Date(), onEnqueued }: InboxDeps) {
  return {
    async list(query: { status?: MessageStatus; subject?: string; page: number; pageSize: number; dir?: "asc" | "desc" }) {
      const conditions: SQL[] = [];
      if (query.status) conditions.push(eq(contactMessages.status, query.status));
      if (query.subject) conditions.push(eq(contactMessages.subject, query.subject));
      const where = conditions.length ? and(...conditions) : undefined;
      const [rows, [{ total }]] = await Promise.all([
        db
          .select({ id: contactMessages.id, createdAt: contactMessages.createdAt, firstName: contactMessages.firstName, lastName: contactMessages.lastName, email: contactMessages.email, subject: contactMessages.subject, status: contactMessages.status })
          .from(contactMessages)
          .where(where)
          .orderBy(query.dir === "asc" ? asc(contactMessages.createdAt) : desc(contactMessages.createdAt), asc(contactMessages.id))
          .limit(query.pageSize)
          .offset((query.page - 1) * query.pageSize),
        db.select({ total: count() }).from(contactMessages).where(where),
      ]);
      return { rows, total };
    },

    async subjects(): Promise<string[]> {
      const rows = await db.selectDistinct({ subject: contactMessages.subject }).from(contactMessages).orderBy(contactMessages.subject);
      return rows.map((r) => r.subject);
    },

    async get(id: string) {
      const [message] = await db.select().from(contactMessages).where(eq(contactMessages.id, id)).limit(1);
      if (!message) return null;
      const replies = await db.select().from(contactReplies).where(eq(contactReplies.messageId, id)).orderBy(asc(contactReplies.createdAt));
      return { ...message, replies };
    },

    setStatus(actor: Actor, id: string, status: MessageStatus): Promise<Saved> {
      return transactionRetrying(db, async (tx) => {
        const [before] = await tx.select({ id: contactMessages.id, status: contactMessages.status, subject: contactMessages.subject }).from(contactMessages).where(eq(contactMessages.id, id)).for("update");
        if (!before) return { ok: false, message: "This message no longer exists." };
        await tx.update(contactMessages).set({ status }).where(eq(contactMessages.id, id));
        await recordAudit(tx, actor, { action: "message.status", entityType: "contact_message", entityId: id, summary: `Message "${oneLine(before.subject, 80)}": ${before.status} → ${status}`, before: { status: before.status }, after: { status } }, now());
        return { ok: true, id, message: `Marked ${status}.` };
      });
    },

    async reply(actor: Actor, id: string, body: string): Promise<Saved> {
      const result = await transactionRetrying(db, async (tx) => {
        const [message] = await tx.select().from(contactMessages).where(eq(contactMessages.id, id)).for("update");
        if (!message) return { ok: false as const, message: "This message no longer exists." };
        const [reply] = await tx.insert(contactReplies).values({ messageId: id, body, sentBy: actor.email, createdAt: now() }).returning();
        await tx.update(contactMessages).set({ status: "answered" }).where(eq(contactMessages.id, id));
        await enqueue(tx, { kind: "email", payload: contactReplyEmail(message, body, museumEmail) }, now());
        await recordAudit(tx, actor, { action: "message.reply", entityType: "contact_message", entityId: id, summary: `Replied to ${message.email} about "${oneLine(message.subject, 80)}"`, before: { status: message.status }, after: { status: "answered", reply: { id: reply.id, body } } }, now());
        return { ok: true as const, id, message: `Reply sent to ${message.email}.` };
      });
      if (result.ok) onEnqueued?.();
      return result;
    },

    /** New messages waiting (for the console's overview). */
    async waiting(): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(contactMessages).where(eq(contactMessages.status, "new"));
      return row?.n ?? 0;
    },
  };
}

