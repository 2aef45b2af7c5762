/**
 * The home banner: five slides, autoplay every 4000 ms (spec), paused while hovered or focused,
 * and not started at all when the visitor prefers reduced motion.
 *
 * Before its scripts run the banner turns in CSS (banner-autoplay-css.ts): the page loads no
 * JavaScript until the person shows intent (decision 016). When the scripts run, Embla and its
 * autoplay plugin load (after hydration, so they are not part of the page's first JavaScript)
 * and take over from the slide the CSS shows at that moment, keeping its rhythm; a dot pressed
 * before that is applied then.
 *
 * First paint (decision 016): every slide offers the allowed rendition heights below its own in a
 * `srcset` with `sizes`, so a phone fetches a rendition near its width rather than the full
 * one. The page holds two carousels (desktop and mobile sets), one hidden by CSS; with `media`
 * the first slide is preloaded only where its carousel shows, and is a `<picture>` whose only
 * source carries that query, so the hidden carousel fetches nothing (a hidden eager image would).
 * Slides 2-5 are lazy images kept out of rendering until 2 s after the first paint, so the page
 * load fetches one banner image.
 */
import type { EmblaCarouselType } from "embla-carousel";
import { useEffect, useRef, useState, type CSSProperties } from "react";
import { preload } from "react-dom";
import type { BannerSlideView } from "~/shared/catalog-types";
import { bannerHeights, withImageHeight } from "~/shared/images";
import { TIMING } from "~/lib/timing";
import { bannerAnimationName, bannerAutoplayCss, bannerPosition } from "./banner-autoplay-css";

/** A transparent pixel: what a slide's picture shows where its media query does not match (its carousel is hidden there). */
const EMPTY_IMAGE = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7";

/** The slide at each allowed rendition height up to its own, with the width each one has. */
export function bannerSrcSet(slide: BannerSlideView): string {
  const heights = bannerHeights(slide.height);
  if (heights.length === 0 || !slide.src.includes("images/view/")) return `${slide.src} ${slide.width}w`;
  return heights.map((h) => `${withImageHeight(slide.src, h)} ${Math.round((slide.width * h) / slide.height)}w`).join(", ");
}

interface BannerCarouselProps {
  slides: BannerSlideView[];
  label: string;
  className: string;
  /** The media query under which this carousel shows (its first slide is preloaded only there). */
  media?: string;
  /** How wide a slide is drawn, for `srcset` (the `sizes` attribute). */
  sizes?: string;
}

export function BannerCarousel({ slides, label, className, media, sizes = "100vw" }: BannerCarouselProps) {
  const first = slides[0];
  // Hoisted by React into the head, so the browser fetches the first slide with the stylesheet.
  if (first) {
    preload(first.src, { as: "image", imageSrcSet: bannerSrcSet(first), imageSizes: sizes, fetchPriority: "high", media });
  }
  const viewportRef = useRef<HTMLDivElement>(null);
  const sectionRef = useRef<HTMLElement>(null);
  const [embla, setEmbla] = useState<EmblaCarouselType | null>(null);
  const [selected, setSelected] = useState(0);

  // A dot pressed before the carousel ran (its click is replayed once the page has hydrated).
  const pendingSlide = useRef<number | null>(null);

  useEffect(() => {
    const viewport = viewportRef.current;
    if (!viewport) return;
    let api: EmblaCarouselType | undefined;
    let cancelled = false;
    const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    let firstTurn: ReturnType<typeof setTimeout> | undefined;
    void Promise.all([import("embla-carousel"), import("embla-carousel-autoplay")]).then(([{ default: EmblaCarousel }, { default: Autoplay }]) => {
      if (cancelled) return;
      // Take over from the CSS autoplay: the slide it shows now and the time left until its next turn.
      const strip = viewport.firstElementChild;
      const css = strip?.getAnimations().find((a) => (a as CSSAnimation).animationName === bannerAnimationName(slides.length));
      const position = css ? bannerPosition(Number(css.currentTime ?? 0), slides.length, TIMING.carouselAutoplay) : { index: 0, untilNextTurnMs: TIMING.carouselAutoplay };
      css?.cancel();
      if (sectionRef.current) sectionRef.current.dataset.ready = "true";
      const plugins = reducedMotion
        ? []
        : [
            Autoplay({
              delay: TIMING.carouselAutoplay,
              playOnInit: false,
              stopOnMouseEnter: true,
              stopOnInteraction: false,
              // Hovering anywhere in the carousel, slide buttons included, pauses it.
              rootNode: () => sectionRef.current,
            }),
          ];
      const startIndex = pendingSlide.current ?? position.index;
      api = EmblaCarousel(viewport, { loop: true, startIndex }, plugins);
      api.on("select", () => setSelected(api!.selectedScrollSnap()));
      setSelected(startIndex);
      setEmbla(api);
      if (reducedMotion) return;
      const autoplay = api.plugins().autoplay;
      firstTurn = setTimeout(() => {
        // Paused (hovered or focused) meanwhile: autoplay resumes when the pointer or focus leaves.
        const section = sectionRef.current;
        if (section?.matches(":hover, :focus-within") || autoplay?.isPlaying()) return;
        api?.scrollNext();
        autoplay?.play();
      }, position.untilNextTurnMs);
    });
    return () => {
      cancelled = true;
      clearTimeout(firstTurn);
      api?.destroy();
    };
  }, [slides.length]);

  if (slides.length === 0) return null;
  return (
    <section
      ref={sectionRef}
      aria-roledescription="carousel"
      aria-label={label}
      className={className}
      data-selected={selected}
      data-ready={embla ? "true" : "false"}
      data-banner-slides={slides.length}
      // Keyboard focus on the slide buttons pauses autoplay until focus leaves the carousel.
      onFocus={() => embla?.plugins().autoplay?.stop()}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) embla?.plugins().autoplay?.play();
      }}
    >
      {/* Hoisted by React into the head (`href` + `precedence`), once for both carousels: a `<style>`
          in the body may only style its parent and what follows it (HTML Standard, decision 026). */}
      <style href={bannerAnimationName(slides.length)} precedence="banner">
        {bannerAutoplayCss(slides.length, TIMING.carouselAutoplay)}
      </style>
      <div className="overflow-hidden rounded-lg" ref={viewportRef}>
        <div className="banner-strip flex">
          {slides.map((s, i) => (
            <div key={s.src} className={`min-w-0 flex-[0_0_100%]${i > 0 ? " banner-later" : ""}`} role="group" aria-roledescription="slide" aria-label={`${i + 1} of ${slides.length}`}>
              {i === 0 && media ? (
                <picture>
                  <source media={media} srcSet={bannerSrcSet(s)} sizes={sizes} />
                  <img src={EMPTY_IMAGE} alt={s.alt} width={s.width} height={s.height} className="h-auto w-full" style={{ aspectRatio: `${s.width} / ${s.height}` }} fetchPriority="high" />
                </picture>
              ) : (
                <img
                  // Lazy, and out of rendering until 2 s after the first paint (`banner-later`): fetched
                  // during the page load they would compete with the first slide.
                  src={s.src}
                  srcSet={bannerSrcSet(s)}
                  sizes={sizes}
                  alt={s.alt}
                  width={s.width}
                  height={s.height}
                  className="h-auto w-full"
                  style={{ aspectRatio: `${s.width} / ${s.height}` }}
                  loading={i === 0 ? "eager" : "lazy"}
                  fetchPriority={i === 0 ? "high" : "auto"}
                />
              )}
            </div>
          ))}
        </div>
      </div>
      <div className="mt-1 flex justify-center gap-1">
        {slides.map((s, i) => (
          // A 12 px dot inside a 28 px button: the target is larger than the mark (WCAG 2.5.8).
          <button
            key={s.src}
            type="button"
            aria-label={`Show slide ${i + 1}`}
            // Before the scripts run the CSS turns the slides and marks the dots, which no attribute
            // can follow: no dot claims to be the current one until the carousel tracks it.
            aria-current={embla ? i === selected : undefined}
            onClick={() => {
              if (embla) embla.scrollTo(i);
              else pendingSlide.current = i;
            }}
            className="flex h-7 w-7 items-center justify-center rounded-full"
          >
            <span aria-hidden="true" className={`banner-dot block h-3 w-3 rounded-full ${i === selected ? "bg-gold" : "bg-gray-400"}`} style={{ "--banner-dot": i } as CSSProperties} />
          </button>
        ))}
      </div>
    </section>
  );
}
