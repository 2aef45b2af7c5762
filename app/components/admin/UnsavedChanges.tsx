/**
 * Unsaved changes: wrapped around a console edit form, it notices typing (and the
 * rich-text editor, selects, checkboxes) and, until the form is saved, asks before the page is
 * left by a link, the back button (React Router's `useBlocker`) or closing or reloading the tab
 * (`beforeunload`, where the browser shows its own question). Sending a form inside it (save, an
 * image upload, preview) is not leaving, except one marked `data-unsaved-leaves` (it reloads the
 * page without this form's changes: the browser asks); a form outside it (the header's search,
 * Logout) leaves and asks first; a save is done when the page comes back with
 * `?notice=saved` (or `merged`), or, for a form whose action answers in place, when `saved` is the answer of a
 * successful save (a new answer object each time). A change that fires no input event (a photo
 * dragged to a new place) tells it with `useMarkEdited()`.
 */
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { useBlocker, useLocation, useNavigation, type BlockerFunction } from "react-router";
import { useHydrated } from "~/lib/use-hydrated";
import { forgetTyping, keepTyping, keptTypingFor, putBack } from "./kept-typing";

const MarkEdited = createContext<() => void>(() => undefined);

/** For a change made without typing (drag and drop): the form counts as edited from then on. */
export function useMarkEdited(): () => void {
  return useContext(MarkEdited);
}

export function UnsavedChanges({ children, saved }: { children: ReactNode; saved?: { ok: boolean } | null }) {
  const edited = useRef(false);
  const submitting = useRef(false);
  const guarded = useRef<HTMLDivElement>(null);
  const navigation = useNavigation();
  const location = useLocation();

  useEffect(() => {
    if (navigation.state !== "idle") return;
    // The server answered this page (a save, a refusal shown as typed): the kept typing has done its job.
    if (submitting.current) forgetTyping();
    submitting.current = false;
  }, [navigation.state]);

  useEffect(() => {
    if (["saved", "merged"].includes(new URLSearchParams(location.search).get("notice") ?? "")) edited.current = false;
  }, [location.key, location.search]);

  useEffect(() => {
    if (saved?.ok) edited.current = false;
  }, [saved]);

  useEffect(() => {
    const onSubmit = (event: SubmitEvent) => {
      const form = event.target as HTMLFormElement;
      const submitter = event.submitter as HTMLButtonElement | null;
      // A form opened in another tab does not leave this page.
      if ((submitter?.formTarget || form.target) === "_blank") return;
      // A form that reloads the page without this one's changes (the exhibit photo upload) leaves it: the browser asks.
      if (form.hasAttribute("data-unsaved-leaves")) return;
      // A form elsewhere on the page (the header's search, Logout) leaves it: asked like a link.
      if (!guarded.current?.contains(form)) return;
      submitting.current = true;
      // Kept in this tab until the answer comes back: if the session ended, it is offered back after signing in.
      keepTyping(window.location.pathname, guarded.current, form);
    };
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!edited.current || submitting.current) return;
      event.preventDefault();
      event.returnValue = "";
    };
    // Capture: React Router starts the submission in React's own handler, below the document.
    document.addEventListener("submit", onSubmit, true);
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => {
      document.removeEventListener("submit", onSubmit, true);
      window.removeEventListener("beforeunload", onBeforeUnload);
    };
  }, []);

  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) =>
      edited.current && !submitting.current && currentLocation.pathname + currentLocation.search !== nextLocation.pathname + nextLocation.search,
    [],
  );
  const blocker = useBlocker(shouldBlock);
  const markEdited = useCallback(() => {
    edited.current = true;
  }, []);

  return (
    <div ref={guarded} onInput={markEdited} onChange={markEdited} data-unsaved-guard="">
      <KeptTypingOffer area={guarded} />
      <MarkEdited.Provider value={markEdited}>{children}</MarkEdited.Provider>
      {blocker.state === "blocked" ? (
        <div className="fixed inset-0 z-50 flex items-center justify-center bg-black/50 p-4">
          <div
            role="alertdialog"
            aria-modal="true"
            aria-labelledby="unsaved-title"
            aria-describedby="unsaved-text"
            className="max-w-md rounded bg-white p-6 shadow-lg"
            onKeyDown={(event) => {
              if (event.key === "Escape") blocker.reset();
            }}
          >
            <h2 id="unsaved-title" className="mb-2 text-xl font-bold">
              Leave without saving?
            </h2>
            <p id="unsaved-text" className="mb-4">
              This form has changes that are not saved. If you leave now, they are lost.
            </p>
            <div className="flex flex-wrap gap-3">
              <button type="button" autoFocus onClick={() => blocker.reset()} className="rounded bg-ink px-4 py-2 font-semibold text-gold hover:bg-steel">
                Stay on this page
              </button>
              <button
                type="button"
                onClick={() => {
                  forgetTyping();
                  blocker.proceed();
                }} className="rounded border border-red-800 px-4 py-2 font-semibold text-red-800 hover:bg-red-50">
                Leave without saving
              </button>
            </div>
          </div>
        </div>
      ) : null}
    </div>
  );
}

/**
 * The offer of typing kept in this browser for this page (kept-typing.ts): shown when a form sent
 * from here never got its answer (the session had ended), with Put it back and Discard.
 */
function KeptTypingOffer({ area }: { area: React.RefObject<HTMLDivElement | null> }) {
  const hydrated = useHydrated();
  const { pathname } = useLocation();
  const [done, setDone] = useState(false);
  const kept = hydrated && !done ? keptTypingFor(pathname) : null;
  if (!kept) return null;
  const at = new Date(kept.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  const finish = () => {
    forgetTyping();
    setDone(true);
  };
  return (
    <div role="alert" data-testid="kept-typing" className="mb-4 rounded border border-amber-700 bg-amber-50 px-4 py-3">
      <p className="mb-2">{`What you typed here at ${at} was not saved: your session had ended before it arrived. It was kept in this browser.`}</p>
      <div className="flex flex-wrap gap-3">
        <button
          type="button"
          className="rounded bg-ink px-3 py-1 font-semibold text-gold"
          onClick={() => {
            if (area.current) putBack(area.current, kept);
            finish();
          }}
        >
          Put it back
        </button>
        <button type="button" className="rounded border border-ink px-3 py-1" onClick={finish}>
          Discard it
        </button>
      </div>
    </div>
  );
}
