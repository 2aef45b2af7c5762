/**
 * The home banner: five slides, autoplay every 4000 ms (spec), paused while hovered or focused,
 * and not started at all when the visitor prefers reduced motion.
 */
import Autoplay from "embla-carousel-autoplay";
import useEmblaCarousel from "embla-carousel-react";
import { useEffect, useState } from "react";
import type { BannerSlideView } from "~/lib/catalog-types";
import { TIMING } from "~/lib/timing";

function prefersReducedMotion(): boolean {
  return typeof window !== "undefined" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export function BannerCarousel({ slides, label, className }: { slides: BannerSlideView[]; label: string; className: string }) {
  const [plugins] = useState(() =>
    prefersReducedMotion()
      ? []
      : [Autoplay({ delay: TIMING.carouselAutoplay, stopOnMouseEnter: true, stopOnFocusIn: true, stopOnInteraction: false })],
  );
  const [viewportRef, embla] = useEmblaCarousel({ loop: true }, plugins);
  const [selected, setSelected] = useState(0);

  useEffect(() => {
    if (!embla) return;
    const onSelect = () => setSelected(embla.selectedScrollSnap());
    embla.on("select", onSelect);
    return () => {
      embla.off("select", onSelect);
    };
  }, [embla]);

  if (slides.length === 0) return null;
  return (
    <section aria-roledescription="carousel" aria-label={label} className={className} data-selected={selected}>
      <div className="overflow-hidden rounded-lg" ref={viewportRef}>
        <div className="flex">
          {slides.map((s, i) => (
            <div key={s.src} className="min-w-0 flex-[0_0_100%]" role="group" aria-roledescription="slide" aria-label={`${i + 1} of ${slides.length}`}>
              <img
                src={s.src}
                alt={s.alt}
                width={s.width}
                height={s.height}
                className="h-auto w-full"
                style={{ aspectRatio: `${s.width} / ${s.height}` }}
                loading={i === 0 ? "eager" : "lazy"}
                fetchPriority={i === 0 ? "high" : "auto"}
              />
            </div>
          ))}
        </div>
      </div>
      <div className="mt-2 flex justify-center gap-2">
        {slides.map((s, i) => (
          <button
            key={s.src}
            type="button"
            aria-label={`Show slide ${i + 1}`}
            aria-current={i === selected}
            onClick={() => embla?.scrollTo(i)}
            className={`h-3 w-3 rounded-full ${i === selected ? "bg-gold" : "bg-gray-400"}`}
          />
        ))}
      </div>
    </section>
  );
}
