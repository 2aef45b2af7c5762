/**
 * Runs in the browser, inlined into every page by the layout (app/root.tsx, decision 060): the
 * page, once shown, counts one view with one small request to /api/visits, without cookies
 * (`credentials: "omit"`), naming only its address (and, on the search page, its query and how
 * many results it showed). A prerendered page counts when it is shown, if ever. It leaves
 * `window.museumCountView` for the client-side navigations that follow (the layout calls it when
 * the address changes); the same address is not counted twice in a row (a page that hydrates, a
 * form answered on its own page). Console pages are not counted. Plain ES2020, no imports: the
 * build minifies it (`?inline-script`).
 */
export default () => {
  const root = document.documentElement;
  const send = () => {
    const path = location.pathname;
    const key = path + location.search;
    if (/^\/admin(\/|$)/i.test(path) || root.dataset.counted === key) return;
    root.dataset.counted = key;
    const body = { path, search: location.search };
    const total = document.querySelector("[data-search-total]");
    if (total) body.results = Number(total.getAttribute("data-search-total"));
    fetch("/api/visits", { method: "POST", credentials: "omit", keepalive: true, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }).catch(() => {});
  };
  window.museumCountView = send;
  if (document.prerendering) document.addEventListener("prerenderingchange", send, { once: true });
  else send();
};
