/**
 * A local stand-in for the Stripe endpoints the SDK calls: POST /v1/payment_intents (honours
 * Idempotency-Key), GET /v1/payment_intents/:id and POST /v1/refunds (honours Idempotency-Key).
 * Payment methods follow Stripe's test ids: the 3-D Secure ones answer `requires_action` until
 * the test completes or fails the step as the browser would (`authenticate`, `failAuthentication`),
 * then end as Stripe's do (a failed step or a decline after it: `requires_payment_method` with
 * Stripe's message as `last_payment_error`).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

interface Intent {
  id: string;
  object: "payment_intent";
  amount: number;
  currency: string;
  status: string;
  client_secret: string;
  metadata: Record<string, string>;
  receipt_email: string | null;
  latest_charge: unknown;
  last_payment_error: null | { type: string; code: string; decline_code?: string; message: string };
}

/** Stripe's test payment methods that ask for 3-D Secure, and the decline (if any) once it is completed. */
const THREE_D_SECURE: Record<string, Intent["last_payment_error"]> = {
  pm_card_authenticationRequired: null,
  pm_card_threeDSecure2Required: null,
  pm_card_authenticationRequiredChargeDeclinedInsufficientFunds: { type: "card_error", code: "card_declined", decline_code: "insufficient_funds", message: "Your card has insufficient funds." },
};

export async function startStripeApi() {
  const intents = new Map<string, Intent>();
  const byKey = new Map<string, Intent>();
  const requests: { method: string; path: string; idempotencyKey?: string; body: URLSearchParams }[] = [];
  const methods = new Map<string, string>();
  let n = 0;
  const card = { payment_method_details: { card: { brand: "visa", last4: "4242" } } };

  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const body = new URLSearchParams(raw);
      const key = req.headers["idempotency-key"] as string | undefined;
      requests.push({ method: req.method ?? "", path: req.url ?? "", idempotencyKey: key, body });
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { "content-type": "application/json", "request-id": `req_${++n}` });
        res.end(JSON.stringify(json));
      };
      if (req.method === "POST" && req.url === "/v1/payment_intents") {
        if (key && byKey.has(key)) return send(200, byKey.get(key));
        const pm = body.get("payment_method");
        if (pm === "pm_card_chargeDeclined") {
          return send(402, { error: { type: "card_error", code: "card_declined", message: "Your card was declined." } });
        }
        const id = `pi_standin_${++n}`;
        const needsAction = pm !== null && pm in THREE_D_SECURE;
        const intent: Intent = {
          id,
          object: "payment_intent",
          amount: Number(body.get("amount")),
          currency: body.get("currency") ?? "usd",
          status: needsAction ? "requires_action" : "succeeded",
          client_secret: `${id}_secret_x`,
          metadata: { userId: body.get("metadata[userId]") ?? "" },
          receipt_email: body.get("receipt_email"),
          latest_charge: needsAction ? null : card,
          last_payment_error: null,
        };
        intents.set(id, intent);
        methods.set(id, pm ?? "");
        if (key) byKey.set(key, intent);
        return send(200, intent);
      }
      if (req.method === "POST" && req.url === "/v1/refunds") {
        const intent = intents.get(body.get("payment_intent") ?? "");
        if (!intent) return send(404, { error: { type: "invalid_request_error", message: "No such payment_intent" } });
        const refund = { id: `re_standin_${key ?? ++n}`, object: "refund", amount: intent.amount, payment_intent: intent.id, status: "succeeded" };
        return send(200, refund);
      }
      const m = /^\/v1\/payment_intents\/([^/?]+)/.exec(req.url ?? "");
      if (req.method === "GET" && m) {
        const intent = intents.get(m[1]);
        return intent ? send(200, intent) : send(404, { error: { type: "invalid_request_error", message: "No such payment_intent" } });
      }
      send(404, { error: { type: "invalid_request_error", message: "Unrecognized request URL" } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** Changes an intent as if it had been edited in Stripe's dashboard or by another integration. */
    alter(id: string, patch: Partial<Pick<Intent, "amount" | "currency">>) {
      const intent = intents.get(id);
      if (intent) Object.assign(intent, patch);
    },
    /** Completes 3-D Secure for an intent, as the browser would: paid, or declined after it as the card says. */
    authenticate(id: string) {
      const intent = intents.get(id);
      const declined = THREE_D_SECURE[methods.get(id) ?? ""];
      if (intent && declined) Object.assign(intent, { status: "requires_payment_method", last_payment_error: declined });
      else if (intent) Object.assign(intent, { status: "succeeded", latest_charge: card });
    },
    /** Fails (or closes) 3-D Secure for an intent, as the browser would. */
    failAuthentication(id: string) {
      const intent = intents.get(id);
      if (intent) {
        Object.assign(intent, {
          status: "requires_payment_method",
          last_payment_error: { type: "invalid_request_error", code: "payment_intent_authentication_failure", message: "We are unable to authenticate your payment method. Please choose a different payment method and try again." },
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
