/**
 * A form's validation errors, shown where the person is looking: every invalid field is marked
 * (aria-invalid, its message under it via aria-describedby), focus moves to the first invalid
 * field in the form's order and scrolls it to the middle of the screen (clear of the sticky top
 * bar), and the first message goes to the alert banner (role="alert"), which stays in view.
 */
import { useCallback, useRef, useState } from "react";
import { useAlert } from "~/components/AlertBanner";

export type FieldErrors = Partial<Record<string, string>>;

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

function isControl(el: Element): el is Control {
  return el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement;
}

/** The form's first control (in page order) that has an error. */
function firstInvalidControl(form: HTMLFormElement, errors: FieldErrors): Control | null {
  for (const el of Array.from(form.elements)) {
    if (isControl(el) && el.type !== "hidden" && errors[el.name]) return el;
  }
  return null;
}

/** Moves focus to a field and brings it to the middle of the screen, away from the sticky bar. */
export function focusField(el: HTMLElement) {
  el.focus({ preventScroll: true });
  el.scrollIntoView({ block: "center" });
}

/**
 * Runs the browser's own checks (required, type=email, ...) on every field without its bubbles:
 * each failing field fires `invalid`, where the page may set the spec's text with
 * setCustomValidity. Returns the messages by field name.
 */
export function constraintErrors(form: HTMLFormElement): FieldErrors {
  const out: FieldErrors = {};
  for (const el of Array.from(form.elements)) {
    if (!isControl(el) || !el.name || !el.willValidate) continue;
    if (!el.checkValidity()) out[el.name] ??= el.validationMessage;
  }
  return out;
}

/**
 * `initial`: the errors of a form the browser posted itself, as its action answered them (decision
 * 036); their first message is the one the page's banner already shows.
 */
export function useFormErrors({ alertMs, announce = true, initial }: { alertMs?: number; announce?: boolean; initial?: FieldErrors } = {}) {
  const { show, clear, alert } = useAlert();
  const [errors, setErrors] = useState<FieldErrors>(initial ?? {});
  // The banner message this form raised, so fixing the fields ends only that one.
  const raised = useRef<string | null>((announce && initial && Object.values(initial).find(Boolean)) || null);

  /**
   * Shows `next` (all of the form's current errors); returns whether there was any. `timer`
   * overrides the banner's timer for this message (undefined: the hook's own).
   */
  const report = useCallback(
    (form: HTMLFormElement | null, next: FieldErrors, timer: { alertMs?: number } = {}): boolean => {
      setErrors(next);
      const first = form ? firstInvalidControl(form, next) : null;
      const message = first ? next[first.name] : Object.values(next).find(Boolean);
      if (!message) return false;
      if (announce) {
        raised.current = message;
        show({ type: "danger", message }, "alertMs" in timer ? timer.alertMs : alertMs);
      }
      if (first) focusField(first);
      return true;
    },
    [announce, alertMs, show],
  );

  /** The person changed `name`: its mark goes; with no timer, the banner goes with the last one. */
  const fix = useCallback(
    (name: string) => {
      if (!errors[name]) return;
      const rest = { ...errors };
      delete rest[name];
      setErrors(rest);
      const none = Object.values(rest).every((m) => !m);
      if (none && alertMs === undefined && raised.current !== null && alert?.message === raised.current) {
        raised.current = null;
        clear();
      }
    },
    [errors, alertMs, alert, clear],
  );

  const reset = useCallback(() => setErrors({}), []);

  return { errors, report, fix, reset };
}
