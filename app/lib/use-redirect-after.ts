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
import { useFetchers, useNavigate } from "react-router";

/** How long a redirect waits for pending reloads before it goes anyway. */
export const SETTLE_LIMIT_MS = 5000;

/** A navigate function that runs once no fetcher is submitting or reloading (at most SETTLE_LIMIT_MS later). */
export function useSettledNavigate(): (to: string) => void {
  const navigate = useNavigate();
  const busy = useFetchers().some((f) => f.state !== "idle");
  const [pending, setPending] = useState<{ to: string } | null>(null);
  const gone = useRef(false);

  useEffect(() => {
    if (pending === null) return;
    const go = () => {
      if (gone.current) return;
      gone.current = true;
      setPending(null);
      void navigate(pending.to);
    };
    if (!busy) return go();
    const id = setTimeout(go, SETTLE_LIMIT_MS);
    return () => clearTimeout(id);
  }, [pending, busy, navigate]);

  return useCallback((to: string) => {
    gone.current = false;
    setPending({ to });
  }, []);
}

/** Sends the browser to `to` after `ms` milliseconds (the spec's timed redirects). */
export function useRedirectAfter(to: string | null, ms: number) {
  const navigate = useSettledNavigate();
  useEffect(() => {
    if (to === null) return;
    const id = setTimeout(() => navigate(to), ms);
    return () => clearTimeout(id);
  }, [to, ms, navigate]);
}
