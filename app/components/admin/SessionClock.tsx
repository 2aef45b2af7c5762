/**
 * The staff session's clock: a staff session ends after `idleMinutes` (STAFF_IDLE_MINUTES) without a
 * request (decision 015). A few minutes before, the console says so, with "Stay signed in" (one
 * request that counts as activity); once it has ended, it says that what was typed is kept in
 * this browser (UnsavedChanges.tsx) and offered back after signing in again. Every page load,
 * form answer and fetch of the console counts as activity, as it does on the server.
 */
import { useEffect, useRef, useState } from "react";
import { Link, useFetcher, useFetchers, useLocation, useNavigation } from "react-router";
import { STAFF_IDLE_WARNING_MINUTES } from "~/shared/console-areas";

const MINUTE = 60_000;

/** What the clock shows: nothing, the minutes left before the end, or that the session ended. */
type Phase = "quiet" | "ended" | number;

function phaseAt(idleMinutes: number, lastContact: number, now: number): Phase {
  const left = idleMinutes * MINUTE - (now - lastContact);
  if (left <= 0) return "ended";
  return left > STAFF_IDLE_WARNING_MINUTES * MINUTE ? "quiet" : Math.max(1, Math.ceil(left / MINUTE));
}

export function SessionClock({ idleMinutes }: { idleMinutes: number }) {
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const location = useLocation();
  const stay = useFetcher();
  const lastContact = useRef(0);
  const [phase, setPhase] = useState<Phase>("quiet");

  // Each answer from the server (a page, a form's answer, a fetch) restarts the count, as on the server.
  const busy = navigation.state !== "idle" || fetchers.some((f) => f.state !== "idle");
  useEffect(() => {
    if (!busy) lastContact.current = Date.now();
  }, [busy, location.key]);

  useEffect(() => {
    // Once a second: a render only when what is shown changes (the same phase is no update).
    const tick = () => setPhase(phaseAt(idleMinutes, lastContact.current, Date.now()));
    const timer = setInterval(tick, 1000);
    // A tab put to sleep counts the time it slept.
    document.addEventListener("visibilitychange", tick);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", tick);
    };
  }, [idleMinutes]);

  if (phase === "quiet") return null;
  const here = `${location.pathname}${location.search}`;
  if (phase === "ended") {
    return (
      <div role="alert" data-testid="session-ended" className="fixed inset-x-0 bottom-0 z-40 border-t-4 border-red-800 bg-red-50 p-4 text-red-900">
        <p className="mx-auto max-w-3xl">
          <strong>Your session has ended</strong> after {idleMinutes} minutes without activity. Anything you save now is kept in this browser and offered back on this page after you{" "}
          <Link to={`/login?redirectTo=${encodeURIComponent(here)}`} className="font-semibold underline" reloadDocument>
            sign in again
          </Link>
          .
        </p>
      </div>
    );
  }
  const minutes = phase;
  return (
    <div role="alertdialog" aria-labelledby="session-ending-title" data-testid="session-ending" className="fixed inset-x-0 bottom-0 z-40 border-t-4 border-gold bg-white p-4 shadow-lg">
      <div className="mx-auto flex max-w-3xl flex-wrap items-center gap-4">
        <p id="session-ending-title" className="flex-1">
          {`Your session ends in ${minutes} minute${minutes === 1 ? "" : "s"} without activity. Unsaved typing stays on this page.`}
        </p>
        <stay.Form method="post" action="/admin/stay-signed-in">
          <button type="submit" className="rounded bg-ink px-4 py-2 font-semibold text-gold hover:bg-steel">
            Stay signed in
          </button>
        </stay.Form>
      </div>
    </div>
  );
}
