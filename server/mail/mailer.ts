/**
 * Sends email with nodemailer over SMTP_URL. Without SMTP_URL the message is written to the log
 * (so a person running the site locally can follow a reset link) and counts as delivered; the
 * outbox row stays as the record. Every message goes out as text and HTML (html-email.ts), and
 * one with `listUnsubscribe` carries List-Unsubscribe and List-Unsubscribe-Post (one click).
 * A message sent from an outbox row has that row's Message-ID on every attempt (decision 021),
 * so a receiver can drop a copy sent again after an unknown outcome.
 */
import nodemailer from "nodemailer";
import type { Logger } from "../logger";
import type { EmailJob, JobContext } from "../outbox/outbox";
import { htmlFromText } from "./html-email";

export interface Mailer {
  /** `context` is the outbox row the message comes from, when it does: it fixes the Message-ID. */
  send(job: EmailJob, context?: JobContext): Promise<void>;
}

/** The Message-ID of the email of an outbox row: the same on every attempt, unique per row. */
export function outboxMessageId(outboxId: string, host: string): string {
  return `<outbox-${outboxId}@${host}>`;
}

/** No CR/LF may reach a header: they would let input add headers of its own. */
function headerSafe(value: string): string {
  return value.replace(/[\r\n]+/g, " ").trim();
}

export function createMailer({ smtpUrl, from, logger, messageIdHost = "localhost" }: { smtpUrl?: string; from: string; logger: Logger; messageIdHost?: string }): Mailer {
  const messageIdOf = (context?: JobContext) => (context ? outboxMessageId(context.outboxId, messageIdHost) : undefined);
  if (!smtpUrl) {
    return {
      async send(job, context) {
        logger.info({ mail: { to: job.to, subject: job.subject, purpose: job.purpose, messageId: messageIdOf(context) }, text: job.text }, "email (no SMTP_URL set: logged, not sent)");
      },
    };
  }
  const url = new URL(smtpUrl);
  // Timeouts so an unreachable server fails the attempt quickly; the outbox retries it.
  for (const [k, v] of Object.entries({ connectionTimeout: "10000", greetingTimeout: "10000", socketTimeout: "30000" })) {
    if (!url.searchParams.has(k)) url.searchParams.set(k, v);
  }
  const transport = nodemailer.createTransport(url.toString());
  return {
    async send(job, context) {
      await transport.sendMail({
        from,
        messageId: messageIdOf(context),
        to: headerSafe(job.to),
        replyTo: job.replyTo ? headerSafe(job.replyTo) : undefined,
        subject: headerSafe(job.subject),
        // Every email has both parts; the HTML is made from the text, escaped.
        text: job.text,
        html: htmlFromText(job.text, headerSafe(job.subject)),
        // RFC 8058 one-click unsubscribe: a POST to the link stops this kind of email.
        ...(job.listUnsubscribe
          ? { list: { unsubscribe: headerSafe(job.listUnsubscribe) }, headers: { "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } }
          : {}),
      });
    },
  };
}
