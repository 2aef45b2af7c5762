/**
 * A passkey ceremony on one button (decision 056): asks /login/passkey for the options, lets the
 * browser ask the person (`@simplewebauthn/browser`, loaded on the first press), and sends the
 * answer back. A sign-in goes where the server says (a full page load: the header changes); an
 * added passkey shows the server's message and reloads the page's data. A press before the
 * page's scripts run is held and replayed once they do (hydration-bootstrap.js); a browser
 * without passkeys says so.
 */
import { useState, type ReactNode } from "react";
import { useRevalidator } from "react-router";
import { SIGN_IN_MESSAGES } from "~/shared/staff-sign-in-words";

export type PasskeyPurpose = "sign-in" | "step" | "add";

interface Answer {
  options?: unknown;
  redirect?: string;
  confirm?: string;
  ok?: boolean;
  message?: string;
  field?: "password";
}

async function post(fields: Record<string, string>): Promise<Answer> {
  const res = await fetch("/login/passkey", {
    method: "POST",
    headers: { accept: "application/json" },
    body: new URLSearchParams(fields),
    credentials: "same-origin",
  });
  const body = (await res.json().catch(() => null)) as Answer | null;
  return body ?? { ok: false, message: SIGN_IN_MESSAGES.passkeyNoAnswer };
}

/** The browser's refusal in words: the person cancelled (or waited too long), or passkeys do not work here. */
function refusalOf(error: unknown): string {
  const name = (error as { name?: string } | null)?.name;
  if (name === "NotAllowedError" || name === "AbortError") return SIGN_IN_MESSAGES.passkeyCancelled;
  if (name === "InvalidStateError") return SIGN_IN_MESSAGES.passkeyNotAdded;
  return SIGN_IN_MESSAGES.passkeyUnsupported;
}

export function PasskeyButton({
  purpose,
  fields = () => ({}),
  onFieldError,
  className,
  children,
}: {
  purpose: PasskeyPurpose;
  /** Extra form fields read at the press (the password and the passkey's name when adding one). */
  fields?: () => Record<string, string>;
  onFieldError?: (field: "password", message: string) => void;
  className?: string;
  children: ReactNode;
}) {
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<{ ok: boolean; message: string } | null>(null);

  async function run() {
    setBusy(true);
    setSaid(null);
    try {
      const browser = await import("@simplewebauthn/browser");
      if (!browser.browserSupportsWebAuthn()) return setSaid({ ok: false, message: SIGN_IN_MESSAGES.passkeyUnsupported });
      const extra = fields();
      const begun = await post({ intent: "begin", purpose, ...extra });
      if (begun.confirm) return window.location.assign(begun.confirm);
      if (!begun.options) {
        if (begun.field && onFieldError) onFieldError(begun.field, begun.message ?? "");
        return setSaid({ ok: false, message: begun.message ?? SIGN_IN_MESSAGES.passkeyNoAnswer });
      }
      let response: unknown;
      try {
        response =
          purpose === "add"
            ? await browser.startRegistration({ optionsJSON: begun.options as Parameters<typeof browser.startRegistration>[0]["optionsJSON"] })
            : await browser.startAuthentication({ optionsJSON: begun.options as Parameters<typeof browser.startAuthentication>[0]["optionsJSON"] });
      } catch (error) {
        return setSaid({ ok: false, message: refusalOf(error) });
      }
      const done = await post({ intent: "finish", response: JSON.stringify(response), ...(purpose === "add" ? { name: extra.name ?? "" } : {}) });
      if (done.redirect) return window.location.assign(done.redirect);
      setSaid({ ok: done.ok === true, message: done.message ?? SIGN_IN_MESSAGES.passkeyNoAnswer });
      if (done.ok) void revalidator.revalidate();
    } catch {
      setSaid({ ok: false, message: SIGN_IN_MESSAGES.passkeyNoAnswer });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div>
      <button type="button" className={className} disabled={busy} aria-busy={busy} onClick={() => void run()} data-testid={`passkey-${purpose}`}>
        {children}
      </button>
      <p role={said && !said.ok ? "alert" : "status"} className={said?.ok ? "mt-2 font-semibold text-green-800" : "mt-2 font-semibold text-red-800"}>
        {said?.message ?? ""}
      </p>
    </div>
  );
}
