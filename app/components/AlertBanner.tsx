/**
 * The layout's alert banner (spec: Alert = type and message). Pages show an alert for a while
 * with `useAlert().show(alert, ms)`. An alert belongs to the page that raised it: it ends with
 * its timer or when the visitor moves to another page, whichever comes first. The banner sits
 * in the sticky top bar, so it is on screen wherever the page is scrolled to.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useLocation } from "react-router";
import { shownForMs } from "~/lib/use-redirect-after";

export type AlertType = "success" | "danger" | "warning" | "info";
export interface Alert {
  type: AlertType;
  message: string;
}

interface AlertApi {
  alert: Alert | null;
  show(alert: Alert, clearAfterMs?: number): void;
  clear(): void;
}

const AlertContext = createContext<AlertApi | null>(null);

/**
 * `initial`: the answer of a form the browser posted itself (decision 036), in the banner from
 * the first paint, and cleared after `clearAfterMs` counted from when the page was shown.
 */
export function AlertProvider({ children, initial }: { children: ReactNode; initial?: { alert: Alert; clearAfterMs?: number } }) {
  const { pathname, key } = useLocation();
  const [first] = useState(() => (initial ? { ...initial.alert } : null));
  const [alert, setAlert] = useState<Alert | null>(first);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const firstKey = useRef(key);
  const firstClearAfterMs = initial?.clearAfterMs;

  useEffect(() => {
    if (!first || firstClearAfterMs === undefined) return;
    timer.current = setTimeout(() => setAlert((a) => (a === first ? null : a)), Math.max(0, firstClearAfterMs - shownForMs(firstKey.current)));
  }, [first, firstClearAfterMs]);

  // Moving to another page ends the alert. Done while rendering the new page, before its effects
  // run, so an alert the new page raises as it opens (the logout message on /login) is kept.
  const [page, setPage] = useState(pathname);
  if (page !== pathname) {
    setPage(pathname);
    setAlert(null);
  }

  const clear = useCallback(() => {
    clearTimeout(timer.current);
    setAlert(null);
  }, []);
  const show = useCallback((next: Alert, clearAfterMs?: number) => {
    clearTimeout(timer.current);
    // A fresh object per call: the timer only ends the alert it was started for.
    const entry = { ...next };
    setAlert(entry);
    if (clearAfterMs !== undefined) timer.current = setTimeout(() => setAlert((a) => (a === entry ? null : a)), clearAfterMs);
  }, []);

  useEffect(() => () => clearTimeout(timer.current), []);

  const api = useMemo(() => ({ alert, show, clear }), [alert, show, clear]);
  return <AlertContext.Provider value={api}>{children}</AlertContext.Provider>;
}

export function useAlert(): AlertApi {
  const api = useContext(AlertContext);
  if (!api) throw new Error("useAlert must be used inside AlertProvider");
  return api;
}

const STYLES: Record<AlertType, string> = {
  success: "border-green-700 bg-green-50 text-green-900",
  danger: "border-red-700 bg-red-50 text-red-900",
  warning: "border-yellow-600 bg-yellow-50 text-yellow-900",
  info: "border-blue-700 bg-blue-50 text-blue-900",
};

/** Renders an alert box; also used inline by forms for their own messages. */
export function AlertBox({ alert, testId, id }: { alert: Alert; testId?: string; id?: string }) {
  return (
    <div
      id={id}
      role={alert.type === "danger" ? "alert" : "status"}
      data-alert-type={alert.type}
      data-testid={testId}
      className={`rounded border-l-4 px-4 py-3 font-medium ${STYLES[alert.type]}`}
    >
      {alert.message}
    </div>
  );
}

/** The banner under the navigation bar; the layout keeps both in one sticky block. */
export function AlertBanner() {
  const { alert } = useAlert();
  return (
    <div className="mx-auto w-full max-w-6xl px-4" aria-live="polite">
      {alert ? (
        <div className="py-2">
          <div className="shadow-lg">
            <AlertBox alert={alert} testId="alert-banner" />
          </div>
        </div>
      ) : null}
    </div>
  );
}
