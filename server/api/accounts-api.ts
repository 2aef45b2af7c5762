/**
 * The account calls of spec section 7, with the spec's request and response field names:
 * sign-up, login, relogin (session restore), logout, card payment, password reset, and the
 * Stripe webhook. Bodies are validated; bad input answers 400 with a message.
 */
import { Router, type Request, type Response } from "express";
import { z } from "zod";
import { loginSchema, passwordResetRequestSchema, passwordResetSchema, signUpSchema } from "../../app/shared/account-schemas";
import { singleLineText } from "../../app/shared/text-fields";
import { SERVER_MESSAGES } from "../../app/shared/messages";
import { SIGN_IN_MESSAGES } from "../../app/shared/staff-sign-in-words";
import { accountView } from "../accounts/accounts-service";
import { requestSessionToken } from "../accounts/request-auth";
import type { Viewer } from "../../app/shared/access";
import type { Services } from "../services";
import { requireAccount } from "./guards";
import { sendError, zodMessage } from "./http-errors";
import { createKeyedWrites } from "./idempotency-header";
import { IDEMPOTENCY_HEADER, parseIdempotencyKey } from "../idempotency/idempotency";

type SignedIn = Viewer & { userId: string };

const paymentSchema = z.object({
  id: singleLineText("id", { max: 255, required: "id: the payment method id is required" }).pipe(z.string().min(3)),
  receipt_email: singleLineText("receipt_email", { max: 254 }).optional(),
  idempotencyKey: singleLineText("idempotencyKey", { max: 200 }).pipe(z.string().min(8)).optional(),
});
const confirmSchema = z.object({ paymentIntentId: singleLineText("paymentIntentId", { max: 255, required: "paymentIntentId is required" }).pipe(z.string().min(3)) });
const logoutSchema = z.object({ emailAddress: singleLineText("emailAddress", { max: 254 }).optional() }).passthrough();

export function createAccountsApi(services: Services): Router {
  const { accounts, payments, sessionCookies } = services;
  const api = Router();
  const viewerOf = (res: Response) => (res.locals.viewer as SignedIn | null | undefined) ?? null;
  const keyed = createKeyedWrites(services.idempotency, services.database.db);

  function parse<T>(schema: z.core.$ZodType<T>, req: Request, res: Response, extra: Record<string, unknown> = {}): T | null {
    const parsed = z.safeParse(schema, req.body ?? {});
    if (parsed.success) return parsed.data;
    res.status(400).json({ ...extra, message: zodMessage(parsed.error).replace(/^[^:]+: /, "") });
    return null;
  }

  api.post("/users", async (req, res) => {
    const scope = keyed.scope(req, res, "POST /api/users");
    if (scope === undefined) return;
    const input = parse(signUpSchema, req, res, { success: false });
    if (!input) return;
    const answer = await keyed.answer(res, scope, async (tx) => {
      const result = await accounts.createAccount(input, tx);
      if (!result.ok) return { status: 409, body: { success: false, message: SERVER_MESSAGES.emailTaken } };
      return { status: 201, body: { success: true, account: result.account, message: SERVER_MESSAGES.signUpSuccess }, ref: result.userId };
    });
    if (!answer) return;
    // The first answer signs the new account in; a replay does too (the same key and body,
    // password included, are what a login asks for, decision 025), unless the account's sessions
    // were ended since (logout, password change: the stored answer, no session) or the account
    // was deleted: 410 Gone, as the account the stored answer names is no more (decision 047).
    const session = answer.ref ? await services.sessions.startForSignUp(answer.ref, answer.storedAt) : "ended";
    if (session === "gone") return res.status(410).json({ success: false, message: SERVER_MESSAGES.signUpAccountGone });
    if (session !== "ended") res.setHeader("Set-Cookie", await sessionCookies.start(req.headers, session.token));
    res.status(answer.status).json(answer.body);
  });

  api.post("/users/login", async (req, res) => {
    const input = parse(loginSchema, req, res, { login: false });
    if (!input) return;
    // Slowed down per client IP and account (decision 010); the host limits each IP overall.
    const result = await accounts.startSession(input.emailAddress, input.password, req.ip, req.headers["user-agent"]);
    // A staff account's second step (decision 055) is a page's: the API starts no staff session.
    if (result.outcome === "second_step") return res.status(403).json({ login: false, message: SIGN_IN_MESSAGES.staffOnLoginPage });
    if (result.outcome === "throttled") {
      res.setHeader("Retry-After", String(Math.ceil(result.retryAfterMs / 1000)));
      return res.status(429).json({ login: false, message: SERVER_MESSAGES.loginRateLimited });
    }
    if (result.outcome === "invalid") return res.status(401).json({ login: false, message: SERVER_MESSAGES.loginFailed });
    res.setHeader("Set-Cookie", await sessionCookies.start(req.headers, result.token));
    const { status, account } = result;
    res.json({
      login: status === "paid",
      expired: status === "expired",
      unpaid: status === "unpaid",
      message:
        status === "paid"
          ? SERVER_MESSAGES.loginSuccess(account.firstName)
          : status === "expired"
            ? SERVER_MESSAGES.loginExpired
            : SERVER_MESSAGES.loginUnpaid,
      account,
    });
  });

  api.post("/users/relogin", async (req, res) => {
    const token = requestSessionToken(req.headers.cookie, req.headers.authorization);
    const viewer = viewerOf(res);
    if (!token || !viewer) return res.status(401).json({ message: "No active session." });
    res.json({
      token,
      account: { firstName: viewer.firstName, lastName: viewer.lastName, emailAddress: viewer.emailAddress, validThrough: viewer.validThrough },
    });
  });

  api.post("/users/logout", async (req, res) => {
    if (!parse(logoutSchema, req, res, { logout: false })) return;
    res.setHeader("Set-Cookie", await sessionCookies.end(req.headers));
    res.json({ logout: true, alertType: "success", message: SERVER_MESSAGES.logout });
  });

  api.post("/users/request-reset", async (req, res) => {
    const input = parse(passwordResetRequestSchema, req, res);
    if (!input) return;
    await accounts.requestPasswordReset(input.emailAddress);
    res.json({ message: SERVER_MESSAGES.resetRequested });
  });

  api.post("/users/reset-password", async (req, res) => {
    const input = parse(passwordResetSchema, req, res);
    if (!input) return;
    if (!(await accounts.resetPassword(input.token, input.password))) {
      return sendError(res, 400, SERVER_MESSAGES.resetInvalidToken);
    }
    res.setHeader("Set-Cookie", sessionCookies.cleared());
    res.json({ message: SERVER_MESSAGES.resetDone });
  });

  const signedIn = requireAccount(SERVER_MESSAGES.notLoggedInForPayment);

  api.post("/stripe/payment", signedIn, async (req, res) => {
    const viewer = viewerOf(res)!;
    // The Idempotency-Key header is one more way to send the payment's key (decision 025): the
    // provider's own idempotency makes a retry the same payment; nothing is stored here.
    const header = parseIdempotencyKey(req.get(IDEMPOTENCY_HEADER));
    if (!header.ok) return res.status(400).json({ success: false, message: header.message });
    const input = parse(paymentSchema, req, res, { success: false });
    if (!input) return;
    const outcome = await payments.pay({
      userId: viewer.userId,
      paymentMethodId: input.id,
      receiptEmail: viewer.emailAddress,
      // Same payment method from the same account on the same request key = same payment.
      idempotencyKey: `${viewer.userId}:${input.idempotencyKey ?? header.key ?? input.id}`,
    });
    await answerPayment(res, viewer.userId, outcome);
  });

  api.post("/stripe/payment/confirm", signedIn, async (req, res) => {
    const viewer = viewerOf(res)!;
    const input = parse(confirmSchema, req, res, { success: false });
    if (!input) return;
    const outcome = await payments.confirm({ userId: viewer.userId, providerPaymentId: input.paymentIntentId, receiptEmail: viewer.emailAddress });
    await answerPayment(res, viewer.userId, outcome);
  });

  async function answerPayment(res: Response, userId: string, outcome: Awaited<ReturnType<typeof payments.pay>>) {
    switch (outcome.status) {
      case "succeeded": {
        const user = await accounts.findById(userId);
        return res.json({ success: true, account: user ? accountView(user) : null, message: outcome.message });
      }
      case "requires_action":
        return res.status(202).json({ success: false, requiresAction: true, clientSecret: outcome.clientSecret, paymentIntentId: outcome.providerPaymentId });
      case "card_error":
        return res.status(402).json({ success: false, cardError: true, message: outcome.message });
      case "server_error":
        return res.status(503).json({ success: false, message: outcome.message });
    }
  }

  return api;
}
