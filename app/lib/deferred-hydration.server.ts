/**
 * Hydration on intent (decision 016). For a page whose routes allow it (`handle.hydrate`,
 * app/lib/hydration.ts), React Router's module script is rewritten so that its imports run only
 * once the person shows intent, or when a timer of the page needs its scripts, and its
 * modulepreload links are left out: the page load fetches no JavaScript. A small inline script
 * (BOOTSTRAP below, part of the same module script, so the CSP nonce or the page cache's hash
 * covers it) waits for the intent, and until React has hydrated it holds the clicks on
 * script-only buttons, double-clicks (a photo's zoom) and the form submissions and replays them
 * once React is there, and hands
 * React what was typed before (React keeps typed values when it hydrates but does not tell the
 * page's state about them). If the scripts fail to load, held submissions go ahead natively.
 */
import type { EntryContext } from "react-router";
import { HYDRATION_LEAD_MS, type HydrationHandle, type HydrationWhen } from "./hydration";

export type HydrationPlan = { defer: false } | { defer: true; startAtMs: number | null };

/** What the page's routes ask for: deferred only for a plain GET page whose every route allows it. */
export function hydrationPlan(method: string, context: EntryContext): HydrationPlan {
  const handlerContext = context.staticHandlerContext;
  if (method !== "GET" || handlerContext.statusCode !== 200 || handlerContext.errors || handlerContext.actionData) return { defer: false };
  let startAtMs: number | null = null;
  for (const match of handlerContext.matches) {
    if (match.route.id === "root") continue;
    const handle = context.routeModules[match.route.id]?.handle as HydrationHandle | undefined;
    const rule = handle?.hydrate;
    const when: HydrationWhen = typeof rule === "function" ? rule(handlerContext.loaderData[match.route.id]) : (rule ?? "now");
    if (when === "now") return { defer: false };
    if (when !== "intent") startAtMs = Math.min(startAtMs ?? Infinity, Math.max(0, when.by - HYDRATION_LEAD_MS));
  }
  return { defer: true, startAtMs };
}

/**
 * Runs in the browser: `start` loads the framework and hydrates; `startAt` is the page time (ms
 * since navigation start) at which to start anyway, or null. Plain ES2020, no dependencies.
 */
const BOOTSTRAP = `((start, startAt) => {
  const root = document.documentElement;
  const intents = ["pointerdown", "touchstart", "keydown", "focusin", "scroll"];
  const held = [];
  let begun = false;
  let settled = false;
  const settle = () => {
    if (settled) return;
    settled = true;
    removeEventListener("click", holdClick, true);
    removeEventListener("dblclick", holdDoubleClick, true);
    removeEventListener("submit", holdSubmit, true);
    // After React has rendered what typed() told it (its updates flush in a microtask).
    void Promise.resolve().then(() => Promise.resolve()).then(() => {
      for (const replay of held.splice(0)) replay();
    });
  };
  const go = () => {
    if (begun) return;
    begun = true;
    for (const type of intents) removeEventListener(type, go, true);
    root.dataset.hydration = "loading";
    start().catch(() => {
      root.dataset.hydration = "failed";
      removeEventListener("input", mute, true);
      removeEventListener("change", mute, true);
      settle();
    });
  };
  // React listens from its first moment of hydration but cannot yet update the page's state, and
  // hydrating a field can reset what was typed into it: every edit until React is there is
  // noted here (and kept from React), and typed() hands the last value of each field to React.
  const edits = new Map();
  const mute = (event) => {
    event.stopImmediatePropagation();
    const field = event.target;
    if (field instanceof HTMLTextAreaElement || field instanceof HTMLInputElement) edits.set(field, field.type === "checkbox" || field.type === "radio" ? field.checked : field.value);
  };
  const holdClick = (event) => {
    if (event.target instanceof HTMLInputElement && (event.target.type === "checkbox" || event.target.type === "radio")) return mute(event);
    const button = event.target instanceof Element ? event.target.closest("button[type=button]") : null;
    if (!button || button.disabled) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    go();
    if (!held.some((r) => r.button === button)) held.push(Object.assign(() => button.isConnected && button.click(), { button }));
  };
  const holdDoubleClick = (event) => {
    const target = event.target;
    event.preventDefault();
    event.stopImmediatePropagation();
    go();
    const init = { bubbles: true, cancelable: true, composed: true, detail: event.detail, button: event.button, buttons: event.buttons };
    for (const key of ["clientX", "clientY", "screenX", "screenY", "ctrlKey", "shiftKey", "altKey", "metaKey"]) init[key] = event[key];
    held.push(() => target.isConnected && target.dispatchEvent(new MouseEvent("dblclick", init)));
  };
  const holdSubmit = (event) => {
    const form = event.target;
    const submitter = event.submitter;
    event.preventDefault();
    event.stopImmediatePropagation();
    go();
    held.push(() => form.isConnected && form.requestSubmit(submitter && submitter.form === form ? submitter : undefined));
  };
  const typed = () => {
    for (const [field, was] of edits) {
      if (!field.isConnected) continue;
      if (typeof was === "boolean") {
        // React's own setter records the other state; the click then sets it back and tells React.
        field.checked = !was;
        field.click();
        continue;
      }
      const proto = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
      field.value = was === "" ? " " : "";
      Object.getOwnPropertyDescriptor(proto, "value").set.call(field, was);
      field.dispatchEvent(new Event("input", { bubbles: true }));
    }
    edits.clear();
  };
  for (const type of intents) addEventListener(type, go, { capture: true, passive: true });
  addEventListener("click", holdClick, true);
  addEventListener("input", mute, true);
  addEventListener("change", mute, true);
  addEventListener("dblclick", holdDoubleClick, true);
  addEventListener("submit", holdSubmit, true);
  new MutationObserver((_, observer) => {
    if (!root.dataset.hydrated) return;
    observer.disconnect();
    root.dataset.hydration = "done";
    removeEventListener("input", mute, true);
    removeEventListener("change", mute, true);
    removeEventListener("click", holdClick, true);
    typed();
    settle();
  }).observe(root, { attributes: true, attributeFilter: ["data-hydrated"] });
  if (startAt !== null) setTimeout(go, Math.max(0, startAt - performance.now()));
})`;

const MODULE_SCRIPT = /(<script\b[^>]*\btype="module"[^>]*>)([\s\S]*?)(<\/script>)/;
const STATIC_IMPORT = /^\s*import\s+(?:\*\s+as\s+(\w+)\s+from\s+)?("[^"]+");?\s*$/gm;

/**
 * The page's HTML with React Router's module script held back (see above) and without its
 * modulepreload links; unchanged if the script is not found in the expected shape.
 */
export function deferHydration(html: string, startAtMs: number | null): string {
  const script = MODULE_SCRIPT.exec(html);
  if (!script) return html;
  const [whole, open, body, close] = script;
  const names: string[] = [];
  const urls: string[] = [];
  const rest = body.replace(STATIC_IMPORT, (_, name: string | undefined, url: string) => {
    names.push(name ?? "_");
    urls.push(url);
    return "";
  });
  if (urls.length === 0) return html;
  const start = `async () => {\nconst [${names.join(", ")}] = await Promise.all([${urls.map((u) => `import(${u})`).join(", ")}]);\n${rest.replace(/^;/, "").replace(/^(\s*)import\(/m, "$1await import(")}\n}`;
  const deferred = `${open}${BOOTSTRAP}(${start}, ${startAtMs === null ? "null" : Math.round(startAtMs)});${close}`;
  return html.replace(whole, () => deferred).replace(/<link rel="modulepreload"[^>]*\/?>/g, "");
}
