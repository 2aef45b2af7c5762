/**
 * The invisible bot check: reCAPTCHA v3 (action 'submit', score threshold from config) when
 * RECAPTCHA_SECRET is set, and always a honeypot field that people never see or fill.
 */
export const HONEYPOT_FIELD = "website";

export type BotCheckResult = { ok: true } | { ok: false; reason: "honeypot" | "recaptcha" };

export interface BotCheckDeps {
  secret?: string;
  verifyUrl: string;
  minScore: number;
  fetchImpl?: typeof fetch;
}

export function createBotCheck({ secret, verifyUrl, minScore, fetchImpl = fetch }: BotCheckDeps) {
  return {
    enabled: Boolean(secret),
    async verify(o: { honeypot: unknown; token: unknown; ip?: string }): Promise<BotCheckResult> {
      if (typeof o.honeypot === "string" && o.honeypot.trim() !== "") return { ok: false, reason: "honeypot" };
      if (!secret) return { ok: true };
      if (typeof o.token !== "string" || o.token.length === 0 || o.token.length > 4000) return { ok: false, reason: "recaptcha" };
      try {
        const body = new URLSearchParams({ secret, response: o.token, ...(o.ip ? { remoteip: o.ip } : {}) });
        const res = await fetchImpl(verifyUrl, { method: "POST", body, signal: AbortSignal.timeout(5000) });
        const result = (await res.json()) as { success?: boolean; score?: number; action?: string };
        const passed = result.success === true && (result.score ?? 0) >= minScore && (result.action === undefined || result.action === "submit");
        return passed ? { ok: true } : { ok: false, reason: "recaptcha" };
      } catch {
        return { ok: false, reason: "recaptcha" };
      }
    },
  };
}

