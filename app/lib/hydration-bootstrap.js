/**
 * Runs in the browser, inlined into the page by deferred-hydration.server.ts (decision 016):
 * `start` loads the framework and hydrates; `startAt` is the page time (ms since navigation
 * start) at which to start anyway, or null. Plain ES2020, no dependencies, no imports. The build
 * minifies it (`?inline-script`, vite.config.ts): it travels in every collection page's HTML.
 */
export default (start, startAt) => {
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
  // Restored from the back/forward cache before hydrating: what the page shows is what the server
  // said when it was first loaded, and the session may have changed since (a sign-in). Hydrate
  // now; the layout asks the server again once React runs (app/root.tsx).
  addEventListener("pageshow", (event) => {
    if (!event.persisted || begun) return;
    root.dataset.restored = "true";
    go();
  });
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
  // A field marked `data-same-as="<name>"` must repeat that field (an email address in any case),
  // a check no browser makes without a script.
  const twinsMatch = (form) =>
    Array.prototype.every.call(form.querySelectorAll("[data-same-as]"), (field) => {
      const twin = form.elements.namedItem(field.dataset.sameAs);
      const same = (value) => (field.type === "email" ? value.toLowerCase() : value);
      return !twin || same(field.value) === same(twin.value);
    });
  const holdSubmit = (event) => {
    const form = event.target;
    const submitter = event.submitter;
    // A form whose server answer is what its script would show (`data-submit-early`) goes at
    // once, the browser's own way, when its fields pass their checks: the person does not wait
    // for the framework's download and hydration. Kept from React, which may be hydrating.
    if (form.hasAttribute("data-submit-early") && form.checkValidity() && twinsMatch(form)) return event.stopImmediatePropagation();
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
};
