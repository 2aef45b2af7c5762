/**
 * The invisible bot check in forms: a honeypot field people never see, and reCAPTCHA v3 (action
 * 'submit') when a site key is configured; `getToken()` resolves to "" without one.
 */
import { useCallback, useEffect } from "react";
import { useRouteLoaderData } from "react-router";
import { useNonce } from "./nonce";

interface Grecaptcha {
  ready(cb: () => void): void;
  execute(siteKey: string, o: { action: string }): Promise<string>;
}
declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

export const HONEYPOT_NAME = "website";

export function Honeypot() {
  return (
    <div aria-hidden="true" style={{ position: "absolute", left: "-10000px", width: 1, height: 1, overflow: "hidden" }}>
      <label>
        Leave this field empty
        <input type="text" name={HONEYPOT_NAME} tabIndex={-1} autoComplete="off" defaultValue="" />
      </label>
    </div>
  );
}

/** The reCAPTCHA site key from the site's settings; null when reCAPTCHA is not configured. */
function useRecaptchaSiteKey(): string | null {
  const root = useRouteLoaderData("root") as { settings?: { recaptchaSiteKey?: string | null } } | undefined;
  return root?.settings?.recaptchaSiteKey ?? null;
}

export function useRecaptcha(): { getToken: () => Promise<string>; enabled: boolean } {
  const siteKey = useRecaptchaSiteKey();
  const nonce = useNonce();

  useEffect(() => {
    if (!siteKey || document.querySelector("script[data-recaptcha]")) return;
    const s = document.createElement("script");
    s.src = `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`;
    s.async = true;
    s.nonce = nonce;
    s.dataset.recaptcha = "true";
    document.head.appendChild(s);
  }, [siteKey, nonce]);

  const getToken = useCallback(async () => {
    const g = window.grecaptcha;
    if (!siteKey || !g) return "";
    return new Promise<string>((resolve) => g.ready(() => g.execute(siteKey, { action: "submit" }).then(resolve, () => resolve(""))));
  }, [siteKey]);

  return { getToken, enabled: siteKey !== null };
}

/** Who checks the form: Google reCAPTCHA only when a site key is configured (else the honeypot and rate limits). */
export function RecaptchaNotice() {
  if (!useRecaptchaSiteKey()) {
    return (
      <p className="text-sm text-gray-600" data-testid="bot-check-notice">
        This form is protected against spam by an invisible bot check.
      </p>
    );
  }
  return (
    <p className="text-sm text-gray-600" data-testid="bot-check-notice">
      This form is protected against spam by an invisible bot check (Google reCAPTCHA). Google&apos;s{" "}
      <a href="https://policies.google.com/privacy" className="underline" target="_blank" rel="noopener noreferrer">
        Privacy Policy
      </a>{" "}
      and{" "}
      <a href="https://policies.google.com/terms" className="underline" target="_blank" rel="noopener noreferrer">
        Terms of Service
      </a>{" "}
      apply.
    </p>
  );
}
