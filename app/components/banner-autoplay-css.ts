/**
 * The home banner's autoplay before its scripts run (decision 016, "The banner turns in CSS"):
 * keyframes that turn a carousel of `count` slides every `stepMs` (the spec's 4000 ms) and move
 * its dots' mark with it, so the page needs no JavaScript to turn its banner. They apply while
 * the carousel is not yet run by its scripts (`data-ready="false"`), not at all when the visitor
 * prefers reduced motion, and pause while the banner is hovered or holds focus, as the scripted
 * carousel does. Once the scripts run, the carousel reads the animation's time
 * (`bannerPosition`), cancels it and carries on from the slide showing (BannerCarousel).
 *
 * Slides after the first are revealed (`content-visibility`) `revealMs` after the page was shown,
 * so their lazy images are fetched after the page's load and before the first turn needs them.
 */

/** How long a turn's movement lasts; it starts at each multiple of the step. */
export const BANNER_MOVE_MS = 500;
/** When the slides after the first may load their images (after the page load, before the first turn). */
export const BANNER_REVEAL_MS = 2000;

const pct = (x: number) => `${Math.round(x * 1e5) / 1e3}%`;

/** The keyframes' names for a carousel of `count` slides. */
export const bannerAnimationName = (count: number) => `banner-turn-${count}`;

/**
 * The stylesheet of a carousel of `count` slides (rendered once per carousel; the rules are the
 * same for both sets of the home page). Real time t since the page was shown: slide k shows from
 * k*step, reached by a move over [k*step, k*step + move]. The strip's animation starts `move`
 * late, so in its own cycle each move ends at a multiple of the step and the wrap from the last
 * slide back to the first ends exactly at the cycle's end.
 */
export function bannerAutoplayCss(count: number, stepMs: number): string {
  if (count < 2) return "";
  const cycle = count * stepMs;
  const name = bannerAnimationName(count);
  const frames: string[] = [];
  for (let k = 0; k < count; k++) {
    const holdFrom = k === 0 ? 0 : (k * stepMs) / cycle;
    const moveFrom = ((k + 1) * stepMs - BANNER_MOVE_MS) / cycle;
    frames.push(`${pct(holdFrom)},${pct(moveFrom)}{transform:translateX(${-100 * k}%)}`);
  }
  frames.push(`100%{transform:translateX(0)}`);
  const first = 1 / count;
  return [
    `@keyframes ${name}{${frames.join("")}}`,
    `@keyframes ${name}-dot{0%,${pct(first - 1e-6)}{background-color:var(--color-gold)}${pct(first)},100%{background-color:var(--color-gray-400)}}`,
    `@keyframes banner-reveal{from,to{content-visibility:visible}}`,
    "@media (prefers-reduced-motion:no-preference){",
    `[data-banner-slides="${count}"][data-ready=false] .banner-strip{animation:${name} ${cycle}ms ease-in-out ${BANNER_MOVE_MS}ms infinite both}`,
    // Dot i is marked over [i*step, (i+1)*step) of each cycle.
    `[data-banner-slides="${count}"][data-ready=false] .banner-dot{animation:${name}-dot ${cycle}ms step-end calc((var(--banner-dot) - ${count}) * ${stepMs}ms) infinite}`,
    `[data-banner-slides="${count}"][data-ready=false]:is(:hover,:focus-within) :is(.banner-strip,.banner-dot){animation-play-state:paused}`,
    `[data-banner-slides="${count}"][data-ready=false] .banner-later{animation:banner-reveal 1ms ${BANNER_REVEAL_MS}ms forwards}`,
    "}",
    `[data-ready=false] .banner-later{content-visibility:hidden}`,
  ].join("");
}

/**
 * Where the CSS autoplay of `count` slides stands after `elapsedMs` of its animation: the slide
 * showing (or being moved to) and the time left until the next turn.
 */
export function bannerPosition(elapsedMs: number, count: number, stepMs: number): { index: number; untilNextTurnMs: number } {
  const t = Math.max(0, elapsedMs);
  return { index: Math.floor(t / stepMs) % count, untilNextTurnMs: stepMs - (t % stepMs) };
}
