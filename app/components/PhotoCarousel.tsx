/**
 * Exhibit photos: one large photo at a time with previous/next and thumbnails (Embla), each
 * photo zoomable by double-click, double-tap or pinch (react-zoom-pan-pinch).
 */
import useEmblaCarousel from "embla-carousel-react";
import { useCallback, useEffect, useState } from "react";
import { TransformComponent, TransformWrapper } from "react-zoom-pan-pinch";
import { PHOTO_STRIP_HEIGHT, withImageHeight } from "~/lib/images";

export const ZOOM_NOTE = "Double-click or tap photos to zoom in/out";

export function PhotoCarousel({ photos, alts }: { photos: string[]; alts: string[] }) {
  // Dragging is off so a pan inside a zoomed photo never flips the slide.
  const [viewportRef, embla] = useEmblaCarousel({ loop: false, watchDrag: false });
  const [selected, setSelected] = useState(0);

  useEffect(() => {
    if (!embla) return;
    const onSelect = () => setSelected(embla.selectedScrollSnap());
    embla.on("select", onSelect);
    return () => {
      embla.off("select", onSelect);
    };
  }, [embla]);

  const go = useCallback((i: number) => embla?.scrollTo(i), [embla]);
  if (photos.length === 0) return null;

  return (
    <section aria-roledescription="carousel" aria-label="Exhibit photos" className="my-6" data-testid="photo-carousel">
      <p className="mb-2 text-sm italic text-gray-600">{ZOOM_NOTE}</p>
      <div className="relative">
        <div className="overflow-hidden rounded-lg bg-black" ref={viewportRef}>
          <div className="flex">
            {photos.map((src, i) => (
              <div
                key={src}
                className="min-w-0 flex-[0_0_100%]"
                role="group"
                aria-roledescription="slide"
                aria-label={`Photo ${i + 1} of ${photos.length}`}
              >
                <TransformWrapper doubleClick={{ mode: "toggle", step: 1.5 }} maxScale={4} wheel={{ disabled: true }}>
                  <TransformComponent wrapperClass="!w-full" contentClass="!w-full">
                    <img
                      src={src}
                      alt={alts[i] ?? ""}
                      width={1200}
                      height={800}
                      className="aspect-[3/2] w-full object-contain"
                      loading={i === 0 ? "eager" : "lazy"}
                      data-testid="exhibit-photo"
                    />
                  </TransformComponent>
                </TransformWrapper>
              </div>
            ))}
          </div>
        </div>
        <p className="mt-2 text-sm text-gray-700" aria-live="polite">
          {alts[selected]}
        </p>
        {photos.length > 1 ? (
          <div className="mt-2 flex justify-between">
            <button type="button" onClick={() => embla?.scrollPrev()} disabled={selected === 0} className="rounded bg-ink px-3 py-1 text-white disabled:opacity-40">
              Previous photo
            </button>
            <button
              type="button"
              onClick={() => embla?.scrollNext()}
              disabled={selected === photos.length - 1}
              className="rounded bg-ink px-3 py-1 text-white disabled:opacity-40"
            >
              Next photo
            </button>
          </div>
        ) : null}
      </div>
      {photos.length > 1 ? (
        <ul className="mt-3 flex gap-2 overflow-x-auto" aria-label="Photo thumbnails">
          {photos.map((src, i) => (
            <li key={src}>
              <button
                type="button"
                onClick={() => go(i)}
                aria-label={`Show photo ${i + 1}`}
                aria-current={i === selected}
                className={`block overflow-hidden rounded ring-2 ${i === selected ? "ring-gold" : "ring-transparent"}`}
              >
                <img src={withImageHeight(src, PHOTO_STRIP_HEIGHT)} alt="" width={120} height={80} className="h-16 w-24 object-cover" loading="lazy" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
