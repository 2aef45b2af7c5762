/**
 * "Passkeys" on the account page and the console's Sign-in and security page (decision 056): the
 * account's passkeys with when each was added and last used, "Remove" for each (a POST to the
 * page's own action, `intent=passkey-remove`), and adding one: a name, the password for a member
 * who has not typed it in the last 10 minutes (staff confirm on the console's own page), then
 * the browser's passkey prompt.
 */
import { useRef, useState } from "react";
import { Form } from "react-router";
import { PasskeyButton } from "./PasskeyButton";

export interface ListedPasskey {
  id: string;
  name: string;
  added: string;
  lastUsed: string | null;
}

export function PasskeySection({ passkeys, askPassword, buttonClass, removeClass }: { passkeys: ListedPasskey[]; askPassword: boolean; buttonClass: string; removeClass: string }) {
  const nameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  return (
    <div className="space-y-3" data-testid="passkeys">
      {passkeys.length ? (
        <ul className="divide-y divide-stone-300 border-y border-stone-300">
          {passkeys.map((k) => (
            <li key={k.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span>
                <strong>{k.name}</strong> · added {k.added} · {k.lastUsed ? `last used ${k.lastUsed}` : "not used yet"}
              </span>
              <Form method="post">
                <input type="hidden" name="intent" value="passkey-remove" />
                <input type="hidden" name="passkeyId" value={k.id} />
                <button type="submit" className={removeClass}>
                  Remove<span className="sr-only"> the passkey {k.name}</span>
                </button>
              </Form>
            </li>
          ))}
        </ul>
      ) : (
        <p>No passkeys yet. A passkey signs you in with your device's fingerprint, face or PIN instead of typing your password.</p>
      )}
      <div className="space-y-2">
        <label className="block">
          <span className="block font-semibold">Name of the new passkey</span>
          <input ref={nameRef} name="passkeyName" maxLength={60} placeholder="For example: work laptop" className="mt-1 w-full max-w-sm rounded border border-stone-500 px-3 py-2" />
        </label>
        {askPassword ? (
          <label className="block">
            <span className="block font-semibold">Your password</span>
            <input
              ref={passwordRef}
              type="password"
              name="passkeyPassword"
              autoComplete="current-password"
              maxLength={200}
              aria-invalid={passwordError ? true : undefined}
              aria-describedby={passwordError ? "passkey-password-error" : undefined}
              onChange={() => setPasswordError(null)}
              className="mt-1 w-full max-w-sm rounded border border-stone-500 px-3 py-2"
            />
            {passwordError ? (
              <span id="passkey-password-error" className="mt-1 block text-sm font-semibold text-red-800">
                {passwordError}
              </span>
            ) : null}
          </label>
        ) : null}
        <PasskeyButton
          purpose="add"
          className={buttonClass}
          fields={() => ({ name: nameRef.current?.value ?? "", password: passwordRef.current?.value ?? "" })}
          onFieldError={(_field, message) => setPasswordError(message)}
        >
          Add a passkey
        </PasskeyButton>
      </div>
    </div>
  );
}
