/**
 * Unsaved changes (issue 24): wrapped around a console edit form, it notices typing (and the
 * rich-text editor, selects, checkboxes) and, until the form is saved, asks before the page is
 * left by a link, the back button (React Router's `useBlocker`) or closing or reloading the tab
 * (`beforeunload`, where the browser shows its own question). Sending a form inside it (save, an
 * image upload, preview) is not leaving, except one marked `data-unsaved-leaves` (it reloads the
 * page without this form's changes: the browser asks); a form outside it (the header's search,
 * Sign out) leaves and asks first (issue 35); a save is done when the page comes back with
 * `?notice=saved`, or, for a form whose action answers in place, when `saved` is the answer of a
 * successful save (a new answer object each time). A change that fires no input event (a photo
 * dragged to a new place) tells it with `useMarkEdited()`.
 */
import { createContext, useCallback, useContext, useEffect, useRef, type ReactNode } from "react";
import { useBlocker, useLocation, useNavigation, type BlockerFunction } from "react-router";

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
    if (navigation.state === "idle") submitting.current = false;
  }, [navigation.state]);

  useEffect(() => {
    if (new URLSearchParams(location.search).get("notice") === "saved") edited.current = false;
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
      // A form elsewhere on the page (the header's search, Sign out) leaves it: asked like a link.
      if (!guarded.current?.contains(form)) return;
      submitting.current = true;
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
              <button type="button" onClick={() => blocker.proceed()} className="rounded border border-red-800 px-4 py-2 font-semibold text-red-800 hover:bg-red-50">
                Leave without saving
              </button>
            </div>
          </div>
        </div>
      ) : null}
    </div>
  );
}
