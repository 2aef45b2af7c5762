/**
 * The layout's alert banner (spec: Alert = type and message). Pages show an alert for a while
 * with `useAlert().show(alert, ms)`.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";

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

export function AlertProvider({ children }: { children: ReactNode }) {
  const [alert, setAlert] = useState<Alert | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const clear = useCallback(() => {
    clearTimeout(timer.current);
    setAlert(null);
  }, []);
  const show = useCallback((next: Alert, clearAfterMs?: number) => {
    clearTimeout(timer.current);
    setAlert(next);
    if (clearAfterMs !== undefined) timer.current = setTimeout(() => setAlert(null), clearAfterMs);
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
export function AlertBox({ alert, testId }: { alert: Alert; testId?: string }) {
  return (
    <div
      role={alert.type === "danger" ? "alert" : "status"}
      data-alert-type={alert.type}
      data-testid={testId}
      className={`rounded border-l-4 px-4 py-3 font-medium ${STYLES[alert.type]}`}
    >
      {alert.message}
    </div>
  );
}

export function AlertBanner() {
  const { alert } = useAlert();
  return (
    <div className="mx-auto w-full max-w-6xl px-4" aria-live="polite">
      {alert ? (
        <div className="mt-4">
          <AlertBox alert={alert} testId="alert-banner" />
        </div>
      ) : null}
    </div>
  );
}
