/**
 * Runs `onResult` once for each new fetcher result: the pages use it to show the server's
 * message in the alert banner and schedule the spec's timed redirect (cleared on unmount).
 */
import { useEffect, useEffectEvent, useRef } from "react";

export function useOnNewResult<T>(data: T | undefined, onResult: (data: T) => (() => void) | void) {
  const seen = useRef<T | undefined>(undefined);
  const handle = useEffectEvent((d: T) => onResult(d));
  useEffect(() => {
    if (data === undefined || data === seen.current) return;
    seen.current = data;
    // Only a function is a cleanup: React calls whatever an effect returns when it unmounts, so a
    // stray value (a Promise from window.scrollTo in current Chromium) would crash the next page.
    const cleanup = handle(data);
    return typeof cleanup === "function" ? cleanup : undefined;
  }, [data]);
}
