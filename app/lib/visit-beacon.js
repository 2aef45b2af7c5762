/**
 * Runs in the browser, inlined into every public page by the layout (app/root.tsx, decision 060):
 * the page, once shown, counts one view with one small request to /api/visits, without cookies
 * (`credentials: "omit"`), naming only its address (and, on the search page, how many results it
 * showed). A prerendered page counts when it is shown, if ever. Kept as small as it can be: the
 * home page must still arrive in a new connection's first flight (tests/integration/first-flight).
 * The
 * client-side navigations that follow are counted by the layout (`useCountedNavigation`), console
 * pages never carry it. Plain ES2020, no imports: the build minifies it (`?inline-script`).
 */
export default () => {
  const send = () => {
    const { pathname: path, search } = location;
    const total = document.querySelector("[data-search-total]");
    fetch("/api/visits", { method: "POST", credentials: "omit", body: JSON.stringify({ path, search, results: total ? +total.dataset.searchTotal : undefined }) }).catch(() => {});
  };
  if (document.prerendering) document.addEventListener("prerenderingchange", send, { once: true });
  else send();
};
