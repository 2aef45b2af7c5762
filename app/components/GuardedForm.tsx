/**
 * The frame of the public forms that take a bot check (/contact, /subscribe): posted through the
 * page's fetcher, `noValidate` from the first paint so a refused field gets the spec's words from
 * the page or the server and never the browser's own (decision 036), hidden rather than removed
 * while sending so a failure brings back everything that was typed, with the honeypot and the
 * form's idempotency key (decision 025). A press before the scripts run posts at once
 * (`data-submit-early`) unless the bot check needs its script's token.
 */
import type { FormEvent, ReactNode, RefObject } from "react";
import type { FetcherWithComponents } from "react-router";
import { IDEMPOTENCY_FIELD } from "~/shared/idempotency";
import { Honeypot } from "./BotCheck";

export function GuardedForm({
  fetcher,
  ref,
  sending,
  onSubmit,
  botCheckRuns,
  idempotencyKey,
  className,
  testId,
  children,
}: {
  fetcher: FetcherWithComponents<unknown>;
  ref: RefObject<HTMLFormElement | null>;
  sending: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** reCAPTCHA runs: a press waits for the scripts, which fetch its token. */
  botCheckRuns: boolean;
  idempotencyKey: string;
  className: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <fetcher.Form
      ref={ref}
      method="post"
      noValidate
      hidden={sending}
      onSubmit={onSubmit}
      className={className}
      data-testid={testId}
      data-submit-early={botCheckRuns ? undefined : ""}
    >
      <Honeypot />
      <input type="hidden" name={IDEMPOTENCY_FIELD} value={idempotencyKey} />
      {children}
    </fetcher.Form>
  );
}
