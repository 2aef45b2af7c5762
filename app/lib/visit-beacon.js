/**
 * Runs in the browser, inlined into every public page by the layout (app/root.tsx, decision 060):
 * the page, once shown, counts one view with one small request to /api/visits, without cookies
 * (`credentials: "omit"`), naming only its address (on the search page with its query: the
 * server searches again to tell whether it found anything). A prerendered page counts when it is
 * shown, if ever. Kept as small as it can be: the home page must still arrive in a new
 * connection's first flight (tests/integration/first-flight.test.ts); the JSON goes as text, so
 * no header is written. The client-side navigations that follow are counted by the layout
 * (`useCountedNavigation`); console pages never carry it. Plain ES2020, no imports: the build minifies it (`?inline-script`).
 */
export default () => {
  const send = () => {
    const { pathname: path, search } = location;
    fetch("/api/visits", { method: "POST", credentials: "omit", body: JSON.stringify({ path, search }) }).catch(() => {});
  };
  if (document.prerendering) document.addEventListener("prerenderingchange", send, { once: true });
  else send();
};
