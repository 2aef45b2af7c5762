/**
 * /admin/security, "Sign-in and security" (decision 055): a staff member's own second
 * step and sessions. An authenticator app is set up from a QR code (or its secret as text) and
 * confirmed by a code from it; its ten recovery codes are shown once. Passkeys are added and
 * removed here (decision 056). Every session of the
 * account is listed with its browser, address and the country it is registered in, and times, each with "Log out", and "Log out
 * everywhere else" (the spec's word, as the site bar's Logout: decision 063). Changing the second step asks for the password (and the app's code) when it
 * was last given more than 10 minutes ago. When the owner requires an app or a passkey, a staff
 * member without one is led here first and reaches nothing else until it is set up.
 */
import { Form, useActionData, useNavigation } from "react-router";
import type { Route } from "./+types/security";
import { ConsoleHeading, ConsoleNotice, DangerButton, Field, inputProps, PrimaryButton } from "~/components/admin/ConsoleUi";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { SIGN_IN_MESSAGES } from "~/shared/staff-sign-in-words";
import { SITE_SHORT_NAME } from "~/shared/site";
import { browserName } from "~/lib/browser-name.server";
import { PasskeySection } from "~/components/PasskeySection";
import { sessionTokenFrom } from "../../../server/accounts/session-cookie.server";
import { placeOf } from "../../../server/accounts/place-by-address.server";
import type { AppSetup } from "../../../server/accounts/staff-sign-in.server";
import { actorOf, consoleAnswer, formText, museumClock, requireConsole, requireRecentPassword, type ConsoleResult } from "./guard.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = requireConsole(context, request, "dashboard");
  const clock = museumClock(context);
  const factors = await context.services.staffSignIn.factors(staff.userId);
  const sessions = await context.services.sessions.listFor(staff.userId, sessionTokenFrom(request.headers.get("cookie")));
  return {
    setupFirst: Boolean(context.viewer?.mustSetUpFactor),
    app: factors.app,
    recoveryCodesLeft: factors.recoveryCodesLeft,
    passkeys: factors.passkeys.map((k) => ({ id: k.id, name: k.name, added: clock.minute(k.createdAt), lastUsed: k.lastUsedAt ? clock.minute(k.lastUsedAt) : null })),
    sessions: await Promise.all(
      sessions.map(async (s) => ({
        id: s.id,
        current: s.current,
        browser: browserName(s.userAgent),
        address: s.clientIp ? `${s.clientIp} (${await placeOf(s.clientIp)})` : "unknown address",
        started: clock.minute(s.createdAt),
        lastSeen: clock.minute(s.lastSeenAt),
      })),
    ),
  };
}

type SecurityResult = ConsoleResult & { setup?: Omit<AppSetup, "uri">; recoveryCodes?: string[] };

export async function action({ request, context }: Route.ActionArgs) {
  const staff = requireConsole(context, request, "dashboard");
  const limited = rateLimitedAnswer<SecurityResult>(context, (message) => ({ ok: false, message }));
  if (limited) return limited;
  const form = await request.formData();
  const intent = formText(form, "intent");
  const signIn = context.services.staffSignIn;
  const { sessions } = context.services;
  const answer = (result: SecurityResult, status?: number) => consoleAnswer(result, status);
  const label = staff.email;
  const token = sessionTokenFrom(request.headers.get("cookie"));

  if (intent === "end-session") {
    const id = formText(form, "sessionId");
    if (token && id === sessions.idOf(token)) return answer({ ok: false, message: "That is this browser's session: use Logout at the top to end it." });
    const ended = await sessions.endListed(staff.userId, id);
    return answer(ended ? { ok: true, message: "That session is logged out." } : { ok: false, message: "That session had already ended." }, ended ? 200 : 404);
  }
  if (intent === "end-others") {
    if (!token) return answer({ ok: false, message: "No session." }, 401);
    await sessions.destroyOthersFor(staff.userId, token);
    return answer({ ok: true, message: "You are logged out everywhere else." });
  }
  if (intent === "app-begin" || intent === "app-remove" || intent === "codes-renew" || intent === "passkey-remove") {
    await requireRecentPassword(context, request, "/admin/security");
  }
  if (intent === "app-begin") {
    const setup = await signIn.beginApp(staff.userId, label);
    if (!setup) return answer({ ok: false, message: SIGN_IN_MESSAGES.noSecretsKey }, 503);
    return answer({ ok: true, message: "", setup: { secret: setup.secret, qrSvg: setup.qrSvg, sealed: setup.sealed } });
  }
  if (intent === "app-confirm") {
    const sealed = formText(form, "sealed");
    const confirmed = await signIn.confirmApp(staff.userId, actorOf(staff), sealed, formText(form, "code"));
    if (confirmed.ok) return answer({ ok: true, message: "Your authenticator app is set up. Keep these recovery codes somewhere safe.", recoveryCodes: confirmed.recoveryCodes });
    const again = await signIn.reopenApp(staff.userId, label, sealed);
    return answer({ ok: false, message: confirmed.message, errors: again ? { code: confirmed.message } : undefined, setup: again ? { secret: again.secret, qrSvg: again.qrSvg, sealed } : undefined });
  }
  if (intent === "app-remove") {
    await signIn.removeApp(staff.userId, actorOf(staff));
    return answer({ ok: true, message: "The authenticator app and its recovery codes are removed." });
  }
  if (intent === "codes-renew") {
    const codes = await signIn.renewRecoveryCodes(staff.userId, actorOf(staff));
    if (!codes) return answer({ ok: false, message: SIGN_IN_MESSAGES.noSecretsKey }, 503);
    return answer({ ok: true, message: "New recovery codes: the earlier ones no longer work.", recoveryCodes: codes });
  }
  if (intent === "passkey-remove") {
    const removed = await context.services.passkeys.remove(staff.userId, actorOf(staff), formText(form, "passkeyId"));
    return answer(removed ? { ok: true, message: SIGN_IN_MESSAGES.passkeyRemoved } : { ok: false, message: "That passkey was already removed." }, removed ? 200 : 404);
  }
  return answer({ ok: false, message: "Unknown action." });
}

export default function Security({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>() as SecurityResult | undefined;
  const busy = useNavigation().state !== "idle";
  const setup = result?.setup;
  const codeError = result?.errors?.code;
  return (
    <section className="max-w-3xl">
      <ConsoleHeading>Sign-in and security</ConsoleHeading>
      {loaderData.setupFirst ? (
        <p role="alert" className="mb-4 rounded border border-amber-700 bg-amber-50 p-3 font-semibold text-amber-900" data-testid="setup-first">
          {SIGN_IN_MESSAGES.setUpFirst}
        </p>
      ) : null}
      {result?.message ? <ConsoleNotice result={result} /> : null}

      {result?.recoveryCodes ? (
        <div className="mb-6 rounded border border-stone-400 p-4" data-testid="recovery-codes">
          <h2 className="text-lg font-bold">Your recovery codes</h2>
          <p className="my-2 text-sm">
            Each code signs you in once when your app is not at hand. They are shown only now: print them or keep them in a password manager.
          </p>
          <ol className="grid grid-cols-2 gap-1 font-mono">
            {result.recoveryCodes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ol>
        </div>
      ) : null}

      <h2 className="mb-2 text-xl font-bold">Authenticator app</h2>
      {setup ? (
        <div className="mb-6 space-y-3" data-testid="app-setup">
          <p>Scan this code with your authenticator app (Google Authenticator, Microsoft Authenticator, 1Password, ...), then type the six-digit code it shows.</p>
          <div className="w-48 bg-white p-2" role="img" aria-label={`QR code for ${SITE_SHORT_NAME} in an authenticator app`} dangerouslySetInnerHTML={{ __html: setup.qrSvg }} />
          <p>
            Or type this key into the app: <code className="break-all font-mono font-semibold" data-testid="app-secret">{setup.secret}</code>
          </p>
          <Form method="post" className="space-y-3">
            <input type="hidden" name="intent" value="app-confirm" />
            <input type="hidden" name="sealed" value={setup.sealed} />
            <Field label="Code from the app" name="code" error={codeError}>
              <input {...inputProps("code", codeError)} inputMode="numeric" autoComplete="one-time-code" maxLength={6} required autoFocus />
            </Field>
            <PrimaryButton busy={busy}>Turn on the app</PrimaryButton>
          </Form>
        </div>
      ) : loaderData.app ? (
        <div className="mb-6 space-y-2">
          <p data-testid="app-status">
            On. {loaderData.recoveryCodesLeft} of 10 recovery codes left.
          </p>
          <div className="flex flex-wrap gap-4">
            <Form method="post">
              <input type="hidden" name="intent" value="codes-renew" />
              <PrimaryButton busy={busy}>Make new recovery codes</PrimaryButton>
            </Form>
            <Form method="post">
              <input type="hidden" name="intent" value="app-remove" />
              <DangerButton>Remove the app</DangerButton>
            </Form>
          </div>
        </div>
      ) : (
        <div className="mb-6 space-y-2">
          <p data-testid="app-status">Off. Without an app or a passkey, a sign-in on a new browser asks for a code sent by email.</p>
          <Form method="post">
            <input type="hidden" name="intent" value="app-begin" />
            <PrimaryButton busy={busy}>Set up an authenticator app</PrimaryButton>
          </Form>
        </div>
      )}

      <h2 className="mb-2 mt-8 text-xl font-bold">Passkeys</h2>
      <PasskeySection
        passkeys={loaderData.passkeys}
        askPassword={false}
        buttonClass="rounded bg-ink px-4 py-2 font-semibold text-gold hover:bg-steel disabled:opacity-60"
        removeClass="rounded border border-red-800 px-3 py-1 font-semibold text-red-800 hover:bg-red-50"
      />

      <h2 className="mb-2 mt-8 text-xl font-bold">Your sessions</h2>
      <ul className="divide-y divide-stone-300 border-y border-stone-300" data-testid="sessions">
        {loaderData.sessions.map((s) => (
          <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
            <span>
              <strong>{s.browser}</strong> · {s.address} · signed in {s.started} · last seen {s.lastSeen}
              {s.current ? <strong className="ml-2 text-green-800">This browser</strong> : null}
            </span>
            {s.current ? null : (
              <Form method="post">
                <input type="hidden" name="intent" value="end-session" />
                <input type="hidden" name="sessionId" value={s.id} />
                <button type="submit" className="font-semibold text-blue-800 underline">
                  Log out<span className="sr-only"> {s.browser}</span>
                </button>
              </Form>
            )}
          </li>
        ))}
      </ul>
      {loaderData.sessions.length > 1 ? (
        <Form method="post" className="mt-3">
          <input type="hidden" name="intent" value="end-others" />
          <DangerButton>Log out everywhere else</DangerButton>
        </Form>
      ) : null}
    </section>
  );
}

export function meta() {
  return [{ title: "Sign-in and security | Staff console" }];
}
