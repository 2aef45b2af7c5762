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
    return handle(data) ?? undefined;
  }, [data]);
}
