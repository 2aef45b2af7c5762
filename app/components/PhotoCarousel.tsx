/**
 * Exhibit photos: one large photo at a time with previous/next and thumbnails (Embla), each
 * photo zoomable by double-click, double-tap or pinch (react-zoom-pan-pinch). A swipe or the
 * left/right arrow keys change the photo, except while the photo is zoomed in (a drag then pans it).
 */
import useEmblaCarousel from "embla-carousel-react";
import { useCallback, useEffect, useState, type HTMLAttributes, type KeyboardEvent } from "react";
import { TransformComponent, TransformWrapper } from "react-zoom-pan-pinch";
import { PHOTO_STRIP_HEIGHT, withImageHeight } from "~/shared/images";

export const ZOOM_NOTE = "Double-click or tap photos to zoom in/out";

export function PhotoCarousel({ photos, alts }: { photos: string[]; alts: string[] }) {
  // A drag flips the photo unless it starts on a zoomed-in photo, where it pans the photo.
  const [viewportRef, embla] = useEmblaCarousel({
    loop: false,
    watchDrag: (_api, event) => !(event.target instanceof Element && event.target.closest('[data-zoomed="true"]')),
  });
  const [selected, setSelected] = useState(0);
  const [zoomed, setZoomed] = useState<Record<number, boolean>>({});
  const setZoom = useCallback((i: number, on: boolean) => setZoomed((z) => (Boolean(z[i]) === on ? z : { ...z, [i]: on })), []);

  // Arrow keys anywhere in the carousel change the photo. Handled while the event travels down,
  // before the zoom library (which would pan an unzoomed photo by nothing) takes the keys.
  const onKeyDownCapture = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    if (event.altKey || event.ctrlKey || event.metaKey || zoomed[selected]) return;
    event.preventDefault();
    if (event.key === "ArrowLeft") embla?.scrollPrev();
    else embla?.scrollNext();
  };

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
    <section aria-roledescription="carousel" aria-label="Exhibit photos" className="my-6" data-testid="photo-carousel" onKeyDownCapture={onKeyDownCapture}>
      <p className="mb-2 text-sm italic text-gray-600">{ZOOM_NOTE}</p>
      <div className="relative">
        {/* Focusable, so the arrow keys reach the carousel without first tabbing to a button. */}
        <div
          className="overflow-hidden rounded-lg bg-black focus-visible:outline-4 focus-visible:outline-offset-2 focus-visible:outline-gold"
          ref={viewportRef}
          tabIndex={0}
          role="group"
          aria-label="Photo viewer: the left and right arrow keys change the photo"
          data-testid="photo-viewer"
        >
          <div className="flex">
            {photos.map((src, i) => (
              <div
                key={src}
                className="min-w-0 flex-[0_0_100%]"
                role="group"
                aria-roledescription="slide"
                aria-label={`Photo ${i + 1} of ${photos.length}`}
              >
                <TransformWrapper
                  doubleClick={{ mode: "toggle", step: 1.5 }}
                  maxScale={4}
                  wheel={{ disabled: true }}
                  // Unzoomed, a drag is a swipe for the carousel, not a pan.
                  panning={{ disabled: !zoomed[i] }}
                  onTransform={(_ref, state) => setZoom(i, state.scale > 1.01)}
                >
                  <TransformComponent wrapperClass="!w-full" contentClass="!w-full" wrapperProps={{ "data-zoomed": zoomed[i] ? "true" : "false" } as HTMLAttributes<HTMLDivElement>}>
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
