/**
 * The spec's timed redirects: a page sends the browser on after a few seconds.
 *
 * They go through `useSettledNavigate`, which waits until no form's answer is still reloading
 * the page's data. React Router (7.18) has a race there: when a form's post (a fetcher) finishes
 * reloading the layout's data while a navigation is still asking the server for its route
 * (lazy route discovery), the router takes the reload's answer as the navigation's and ends it
 * with the old page's routes: the address bar shows the new address over the old page. After a
 * login on a slow connection, the reload of the header can still be running when the redirect's
 * timer fires, and the member stayed on the login page under the payment page's address.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { useFetchers, useLocation, useNavigate } from "react-router";
import { useOnNewResult } from "./use-timed-result";

/** How long a redirect waits for pending reloads before it goes anyway. */
export const SETTLE_LIMIT_MS = 5000;

interface SettledNavigateOptions {
  /** Replace the current history entry (a page that sends the browser on must not be Back's target). */
  replace?: boolean;
}

/** A navigate function that runs once no fetcher is submitting or reloading (at most SETTLE_LIMIT_MS later). */
export function useSettledNavigate(): (to: string, options?: SettledNavigateOptions) => void {
  const navigate = useNavigate();
  const busy = useFetchers().some((f) => f.state !== "idle");
  const [pending, setPending] = useState<{ to: string; replace: boolean } | null>(null);
  const gone = useRef(false);

  useEffect(() => {
    if (pending === null) return;
    const go = () => {
      if (gone.current) return;
      gone.current = true;
      setPending(null);
      void navigate(pending.to, { replace: pending.replace });
    };
    if (!busy) return go();
    const id = setTimeout(go, SETTLE_LIMIT_MS);
    return () => clearTimeout(id);
  }, [pending, busy, navigate]);

  return useCallback((to: string, options?: SettledNavigateOptions) => {
    gone.current = false;
    setPending({ to, replace: options?.replace ?? false });
  }, []);
}

/**
 * The history key of the document the browser loaded, read when this module first runs (the
 * root route imports it, so before hydration; React Router's scroll restoration script has given
 * the entry its key by then). A navigation inside the site gets another key.
 */
const documentKey: string | null = typeof window === "undefined" ? null : ((window.history.state as { key?: string } | null)?.key ?? "default");
let leftDocument = false;

/** Called by the root layout: once the site has navigated away, no page is "the document" again (not even by Back). */
export function useTrackDocumentLocation() {
  const key = useLocation().key;
  useEffect(() => {
    if (documentKey !== null && key !== documentKey) leftDocument = true;
  }, [key]);
}

/**
 * How long the page has been on screen: since its first paint when it is the document the
 * browser loaded (its scripts may run seconds after the page was shown on a slow device),
 * 0 after a navigation inside the site (the new page is shown as the timer starts).
 */
export function shownForMs(locationKey: string): number {
  if (leftDocument || locationKey !== documentKey || typeof performance === "undefined") return 0;
  const paint = performance.getEntriesByName("first-contentful-paint")[0] ?? performance.getEntriesByName("first-paint")[0];
  return Math.max(0, performance.now() - (paint ? paint.startTime : 0));
}

/**
 * Sends the browser to `to` `ms` milliseconds after the page was shown (the spec's timed
 * redirects: the 404, the error page, "You must Login before making payment"). The redirect
 * replaces the page's history entry, so Back returns to the page before it, not to a page that
 * sends the browser away again.
 */
export function useRedirectAfter(to: string | null, ms: number) {
  const navigate = useSettledNavigate();
  const locationKey = useLocation().key;
  useEffect(() => {
    if (to === null) return;
    const id = setTimeout(() => navigate(to, { replace: true }), Math.max(0, ms - shownForMs(locationKey)));
    return () => clearTimeout(id);
  }, [to, ms, navigate, locationKey]);
}

/** A timed redirect as a form's outcome names it: where to, and after how many milliseconds. */
export type TimedRedirect = readonly [string, number];

/**
 * A public form's outcome, whichever way it came (decision 036). A new answer to the page's script
 * (`fetcherData`) goes to `onResult`, which marks fields or shows the banner; its redirect then
 * runs after its delay, unless `onResult` returned false. The answer to a form the browser
 * posted itself (`posted`) was shown by the server, and its redirect counts from when that page
 * was shown.
 */
export function useFormOutcome<R>(fetcherData: R | undefined, posted: R | undefined, redirectOf: (r: R) => TimedRedirect | undefined, onResult: (r: R) => void | false) {
  const navigate = useSettledNavigate();
  useOnNewResult(fetcherData, (r) => {
    if (onResult(r) === false) return;
    const next = redirectOf(r);
    if (!next) return;
    const id = setTimeout(() => navigate(next[0]), next[1]);
    return () => clearTimeout(id);
  });
  const postedRedirect = posted && !fetcherData ? redirectOf(posted) : undefined;
  useRedirectAfter(postedRedirect?.[0] ?? null, postedRedirect?.[1] ?? 0);
}
