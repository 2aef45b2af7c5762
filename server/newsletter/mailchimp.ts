/**
 * Mailchimp Marketing API: add or update one member of the audience (PUT lists/{id}/members/
 * {md5 of the lower-cased email}). Only called for people who gave consent; an existing
 * member's status is left as it is, so an unsubscribe in Mailchimp is respected. A deleted
 * account's address is archived (DELETE on the same member).
 */
import { createHash } from "node:crypto";
import type { MailchimpJob } from "../outbox/outbox";

export interface MailchimpConfig {
  apiKey: string;
  serverPrefix: string;
  audienceId: string;
  /** e.g. http://127.0.0.1:4000 for a local stand-in; default https://{prefix}.api.mailchimp.com */
  apiBase?: string;
}

export function createMailchimpSync(c: MailchimpConfig, fetchImpl: typeof fetch = fetch) {
  const base = (c.apiBase ?? `https://${c.serverPrefix}.api.mailchimp.com`).replace(/\/$/, "");
  const auth = `Basic ${Buffer.from(`museum:${c.apiKey}`).toString("base64")}`;
  return async function syncMember(job: MailchimpJob): Promise<void> {
    const email = job.email.trim().toLowerCase();
    const hash = createHash("md5").update(email).digest("hex");
    if (job.unsubscribe) {
      // A deleted account: archive the member (the address may subscribe again later). Gone already is done.
      const res = await fetchImpl(`${base}/3.0/lists/${encodeURIComponent(c.audienceId)}/members/${hash}`, {
        method: "DELETE",
        headers: { authorization: auth },
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok && res.status !== 404) throw new Error(`Mailchimp answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
      return;
    }
    if (!job.consent) return;
    const res = await fetchImpl(`${base}/3.0/lists/${encodeURIComponent(c.audienceId)}/members/${hash}`, {
      method: "PUT",
      headers: { authorization: auth, "content-type": "application/json" },
      body: JSON.stringify({ email_address: email, status_if_new: "subscribed", merge_fields: { FNAME: job.firstName, LNAME: job.lastName } }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`Mailchimp answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  };
}
