/**
 * False while the server renders and while React hydrates, true afterwards: a form can leave
 * the browser's own checks on until its script is ready to do better.
 */
import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
