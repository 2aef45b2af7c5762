/**
 * The contact and newsletter calls of spec section 7: POST /api/email/contact (bot check, then
 * the message stored and emailed), POST /api/contact (stored), POST /api/mc/subscribe (Mailchimp
 * sync with consent), POST /api/subscribes (local subscriber). The page actions call the same
 * services in one transaction.
 */
import { Router, type Request, type Response } from "express";
import { z } from "zod";
import { contactSchema, mailchimpSubscribeSchema, subscribeSchema } from "../../app/shared/contact-schemas";
import { BOTCHECK_MESSAGES, CONTACT_MESSAGES, SUBSCRIBE_MESSAGES } from "../../app/shared/messages";
import { HONEYPOT_FIELD } from "../botcheck/botcheck";
import type { Services } from "../services";
import { zodMessage } from "./http-errors";

export function createMessagesApi(services: Services): Router {
  const { contact, newsletter, botCheck, config } = services;
  const api = Router();

  function parse<T>(schema: z.core.$ZodType<T>, req: Request, res: Response): T | null {
    const parsed = z.safeParse(schema, req.body ?? {});
    if (parsed.success) return parsed.data;
    res.status(400).json({ success: false, message: zodMessage(parsed.error).replace(/^[^:]+: /, "") });
    return null;
  }

  api.post("/email/contact", async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const check = await botCheck.verify({ honeypot: body[HONEYPOT_FIELD], token: body.recaptchaToken ?? body["g-recaptcha-response"], ip: req.ip });
    if (!check.ok) {
      return res.status(400).json({ success: false, message: check.reason === "honeypot" ? BOTCHECK_MESSAGES.honeypot : BOTCHECK_MESSAGES.failed });
    }
    const input = parse(contactSchema, req, res);
    if (!input) return;
    await contact.submit(input, { email: true, subscription: false });
    res.json({ success: true, message: CONTACT_MESSAGES.success });
  });

  api.post("/contact", async (req, res) => {
    const input = parse(contactSchema, req, res);
    if (!input) return;
    await contact.submit(input, { email: false, subscription: false });
    res.status(201).json({ success: true });
  });

  /** The subscribe calls carry no reCAPTCHA token (spec); the honeypot still applies. */
  async function honeypotRefused(req: Request, res: Response): Promise<boolean> {
    const check = await botCheck.verify({ honeypot: (req.body as Record<string, unknown> | undefined)?.[HONEYPOT_FIELD], token: null });
    if (check.ok || check.reason !== "honeypot") return false;
    res.status(400).json({ success: false, message: BOTCHECK_MESSAGES.honeypot });
    return true;
  }

  api.post("/mc/subscribe", async (req, res) => {
    if (await honeypotRefused(req, res)) return;
    const input = parse(mailchimpSubscribeSchema, req, res);
    if (!input) return;
    await newsletter.subscribe({ email: input.email, firstName: input.firstName, lastName: input.lastName, consent: true, syncMailchimp: true });
    res.json({ success: true, message: SUBSCRIBE_MESSAGES.success });
  });

  api.post("/subscribes", async (req, res) => {
    if (await honeypotRefused(req, res)) return;
    const input = parse(subscribeSchema, req, res);
    if (!input) return;
    await newsletter.subscribe({ email: input.emailAddress, firstName: input.firstName, lastName: input.lastName, consent: input.subscribe, syncMailchimp: false });
    res.json({ success: true, message: input.subscribe ? SUBSCRIBE_MESSAGES.success : SUBSCRIBE_MESSAGES.failure(config.CONTACT_EMAIL_TO) });
  });

  return api;
}
