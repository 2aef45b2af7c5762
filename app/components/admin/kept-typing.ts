/**
 * Typing kept in the browser: a console form's fields are written to this tab's
 * sessionStorage as the form is sent, and forgotten once the server answers the page. When the
 * answer never came back to it (the session had ended and the post went to the login page), the
 * page offers them back after signing in (UnsavedChanges.tsx). Browser-only.
 */

const KEY = "museum:kept-typing";
/** Typing older than this is not offered back (a session ends after 30 minutes; a day is plenty). */
const KEPT_FOR_MS = 24 * 60 * 60_000;

/** One field as it was: its value, and for a checkbox or radio button whether it was ticked. */
interface KeptField {
  name: string;
  value: string;
  checked?: boolean;
}

export interface KeptTyping {
  /** The page's address (pathname) the form was sent from. */
  path: string;
  /** Which form of the page's guarded area (its index). */
  form: number;
  at: number;
  fields: KeptField[];
}

/** The form's own fields (not buttons or files): what putting back sets again. */
function fieldsOf(form: HTMLFormElement): (HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement)[] {
  return [...form.elements].filter(
    (el): el is HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement =>
      (el instanceof HTMLInputElement && !["file", "submit", "button", "reset", "image"].includes(el.type)) || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement,
  );
}

export function keepTyping(path: string, area: HTMLElement, form: HTMLFormElement): void {
  const fields = fieldsOf(form)
    .filter((el) => el.name)
    .map((el): KeptField => (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio") ? { name: el.name, value: el.value, checked: el.checked } : { name: el.name, value: el.value }));
  const kept: KeptTyping = { path, form: [...area.querySelectorAll("form")].indexOf(form), at: Date.now(), fields };
  try {
    sessionStorage.setItem(KEY, JSON.stringify(kept));
  } catch {
    // Storage full or refused (private mode): nothing is kept, as before.
  }
}

export function forgetTyping(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing to forget.
  }
}

/** The typing kept for `path`, if any and recent. */
export function keptTypingFor(path: string): KeptTyping | null {
  try {
    const kept = JSON.parse(sessionStorage.getItem(KEY) ?? "null") as KeptTyping | null;
    return kept && kept.path === path && Date.now() - kept.at < KEPT_FOR_MS && Array.isArray(kept.fields) ? kept : null;
  } catch {
    return null;
  }
}

/** The event a rich-text field listens for (RichTextField.tsx): its text put back. */
export const PUT_BACK_EVENT = "museum:put-back";

/**
 * Sets the kept form's fields again, in order by name (a name may repeat: checkbox lists), and
 * tells each rich-text field its text; the form then counts as edited.
 */
export function putBack(area: HTMLElement, kept: KeptTyping): void {
  const forms = [...area.querySelectorAll("form")];
  const form = forms[kept.form] ?? forms[0];
  if (!form) return;
  const byName = new Map<string, KeptField[]>();
  for (const f of kept.fields) byName.set(f.name, [...(byName.get(f.name) ?? []), f]);
  const rich = new Set([...form.querySelectorAll<HTMLElement>("[data-rich-text]")].map((el) => el.dataset.richText));
  for (const el of fieldsOf(form)) {
    const queue = byName.get(el.name);
    if (!queue?.length || rich.has(el.name)) continue;
    if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")) {
      const match = queue.find((f) => f.value === el.value);
      if (match) el.checked = Boolean(match.checked);
    } else {
      el.value = queue.shift()!.value;
    }
    el.dispatchEvent(new Event("input", { bubbles: true }));
  }
  for (const field of form.querySelectorAll<HTMLElement>("[data-rich-text]")) {
    const value = byName.get(field.dataset.richText ?? "")?.[0]?.value;
    if (value !== undefined) field.dispatchEvent(new CustomEvent(PUT_BACK_EVENT, { detail: value }));
  }
}
