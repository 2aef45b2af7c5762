/**
 * When a page loads its scripts (decision 016). Every page works without JavaScript (links
 * navigate, forms post), so a page whose route says so is served with its framework code held
 * back until the person shows intent (pointerdown, touchstart, keydown, focus, scroll) or a timer
 * of the page needs it; every other page hydrates at once, as before.
 *
 * A route opts in with `export const handle = { hydrate: ... }`: `"intent"`, `{ by: ms }` (on
 * intent, or at the latest so that the page runs its scripts `ms` after it was shown), or a
 * function of the route's loader data returning one of these or `"now"`.
 */
export type HydrationWhen = "now" | "intent" | { by: number };

export interface HydrationHandle {
  hydrate?: HydrationWhen | ((loaderData: unknown) => HydrationWhen);
}

/** How long before a timer's moment the scripts start loading (slow 4G and a slow phone's CPU). */
export const HYDRATION_LEAD_MS = 2000;
