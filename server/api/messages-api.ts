/**
 * The contact and newsletter calls of spec section 7: POST /api/email/contact (bot check, then
 * the message stored and emailed), POST /api/contact (stored), POST /api/mc/subscribe (Mailchimp
 * sync with consent), POST /api/subscribes (local subscriber). The page actions call the same
 * services in one transaction. Each takes an `Idempotency-Key` (decision 025).
 */
import { Router, type Request, type Response } from "express";
import { z } from "zod";
import { contactSchema, mailchimpSubscribeSchema, subscribeSchema } from "../../app/shared/contact-schemas";
import { BOTCHECK_MESSAGES, CONTACT_MESSAGES, SUBSCRIBE_MESSAGES } from "../../app/shared/messages";
import { HONEYPOT_FIELD } from "../botcheck/botcheck";
import type { Services } from "../services";
import { zodMessage } from "./http-errors";
import { createKeyedWrites } from "./idempotency-header";

export function createMessagesApi(services: Services): Router {
  const { contact, newsletter, botCheck, config } = services;
  const api = Router();
  const keyed = createKeyedWrites(services.idempotency, services.database.db);
  const send = (res: Response, answer: { status: number; body: unknown } | null) => answer && res.status(answer.status).json(answer.body);

  function parse<T>(schema: z.core.$ZodType<T>, req: Request, res: Response): T | null {
    const parsed = z.safeParse(schema, req.body ?? {});
    if (parsed.success) return parsed.data;
    // `field`: the form field the message belongs to, so a page can mark it (not only the banner).
    const field = parsed.error.issues[0]?.path[0];
    res.status(400).json({ success: false, message: zodMessage(parsed.error).replace(/^[^:]+: /, ""), ...(typeof field === "string" ? { field } : {}) });
    return null;
  }

  api.post("/email/contact", async (req, res) => {
    const scope = keyed.scope(req, res, "POST /api/email/contact");
    // A retry is answered before the bot check: its reCAPTCHA token was good once.
    if (scope === undefined || (await keyed.replayed(res, scope))) return;
    const body = (req.body ?? {}) as Record<string, unknown>;
    const check = await botCheck.verify({ honeypot: body[HONEYPOT_FIELD], token: body.recaptchaToken ?? body["g-recaptcha-response"], ip: req.ip });
    if (!check.ok) {
      return res.status(400).json({ success: false, message: check.reason === "honeypot" ? BOTCHECK_MESSAGES.honeypot : BOTCHECK_MESSAGES.failed });
    }
    const input = parse(contactSchema, req, res);
    if (!input) return;
    send(res, await keyed.answer(res, scope, async (tx) => {
      await contact.submit(input, { email: true, subscription: false }, tx);
      return { status: 200, body: { success: true, message: CONTACT_MESSAGES.success } };
    }));
  });

  api.post("/contact", async (req, res) => {
    const scope = keyed.scope(req, res, "POST /api/contact");
    if (scope === undefined) return;
    const input = parse(contactSchema, req, res);
    if (!input) return;
    send(res, await keyed.answer(res, scope, async (tx) => {
      await contact.submit(input, { email: false, subscription: false }, tx);
      return { status: 201, body: { success: true } };
    }));
  });

  /** The subscribe calls carry no reCAPTCHA token (spec); the honeypot still applies. */
  async function honeypotRefused(req: Request, res: Response): Promise<boolean> {
    const check = await botCheck.verify({ honeypot: (req.body as Record<string, unknown> | undefined)?.[HONEYPOT_FIELD], token: null });
    if (check.ok || check.reason !== "honeypot") return false;
    res.status(400).json({ success: false, message: BOTCHECK_MESSAGES.honeypot });
    return true;
  }

  api.post("/mc/subscribe", async (req, res) => {
    const scope = keyed.scope(req, res, "POST /api/mc/subscribe");
    if (scope === undefined || (await honeypotRefused(req, res))) return;
    const input = parse(mailchimpSubscribeSchema, req, res);
    if (!input) return;
    send(res, await keyed.answer(res, scope, async (tx) => {
      await newsletter.subscribe({ email: input.email, firstName: input.firstName, lastName: input.lastName, consent: true, syncMailchimp: true }, tx);
      return { status: 200, body: { success: true, message: SUBSCRIBE_MESSAGES.success } };
    }));
  });

  api.post("/subscribes", async (req, res) => {
    const scope = keyed.scope(req, res, "POST /api/subscribes");
    if (scope === undefined || (await honeypotRefused(req, res))) return;
    const input = parse(subscribeSchema, req, res);
    if (!input) return;
    send(res, await keyed.answer(res, scope, async (tx) => {
      await newsletter.subscribe({ email: input.emailAddress, firstName: input.firstName, lastName: input.lastName, consent: input.subscribe, syncMailchimp: false }, tx);
      return { status: 200, body: { success: true, message: input.subscribe ? SUBSCRIBE_MESSAGES.success : SUBSCRIBE_MESSAGES.failure(config.CONTACT_EMAIL_TO) } };
    }));
  });

  return api;
}
