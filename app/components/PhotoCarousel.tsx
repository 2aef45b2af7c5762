/**
 * Exhibit photos: one large photo at a time with previous/next and thumbnails (Embla), each
 * photo zoomable by double-click, double-tap or pinch (react-zoom-pan-pinch). A swipe or the
 * left/right arrow keys change the photo, except while the photo is zoomed in (a drag then pans it).
 *
 * Double-tap and double-click go through one path, ours: the library's own
 * double-click is off, because it listened both to touches (two touchstarts within 200 ms) and to
 * the browser's dblclick, which a quick double tap also fires, so one double tap could zoom in and
 * straight back out, or the next one do nothing.
 *
 * A press made before the carousel is ready is not lost. The hydration bootstrap replays a press
 * made before the scripts ran as soon as React is there, which can be before Embla has set itself
 * up in an effect; the press then waits for Embla (`withEmbla`).
 */
import useEmblaCarousel, { type UseEmblaCarouselType } from "embla-carousel-react";
import { useCallback, useEffect, useRef, useState, type HTMLAttributes, type KeyboardEvent, type MouseEvent, type PointerEvent } from "react";
import { TransformComponent, TransformWrapper, type ReactZoomPanPinchRef } from "react-zoom-pan-pinch";
import { PHOTO_STRIP_HEIGHT, withImageHeight } from "~/shared/images";

type EmblaApi = NonNullable<UseEmblaCarouselType[1]>;

export const ZOOM_NOTE = "Double-click or tap photos to zoom in/out";

export function PhotoCarousel({ photos, alts }: { photos: string[]; alts: string[] }) {
  // A drag flips the photo unless it starts on a zoomed-in photo, where it pans the photo.
  const [viewportRef, embla] = useEmblaCarousel({
    loop: false,
    watchDrag: (_api, event) => !(event.target instanceof Element && event.target.closest('[data-zoomed="true"]')),
  });
  const [selected, setSelected] = useState(0);
  // A press before Embla is ready: done once it is.
  const pending = useRef<((api: EmblaApi) => void) | null>(null);
  const withEmbla = useCallback(
    (act: (api: EmblaApi) => void) => {
      if (embla) act(embla);
      else pending.current = act;
    },
    [embla],
  );
  const [zoomed, setZoomed] = useState<Record<number, boolean>>({});
  const setZoom = useCallback((i: number, on: boolean) => setZoomed((z) => (Boolean(z[i]) === on ? z : { ...z, [i]: on })), []);
  // Each photo's zoom controls, for the keys; and what a zoom by key last said (read out).
  const controls = useRef<(ReactZoomPanPinchRef | null)[]>([]);
  const [zoomSaid, setZoomSaid] = useState("");

  // Keys anywhere in the carousel, handled while the event travels down, before the zoom library:
  // + and - zoom the photo shown in and out (0 or Escape back to its whole), the left and right
  // arrows change the photo, and on a zoomed photo every arrow moves it instead.
  const onKeyDownCapture = (event: KeyboardEvent<HTMLElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const zoom = controls.current[selected];
    const said = zoom ? keyZoom(zoom, event.key) : null;
    if (said !== null) {
      event.preventDefault();
      setZoomSaid(said);
      return;
    }
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    if (zoomed[selected]) return;
    event.preventDefault();
    withEmbla((api) => (event.key === "ArrowLeft" ? api.scrollPrev() : api.scrollNext()));
  };

  useEffect(() => {
    if (!embla) return;
    const onSelect = () => setSelected(embla.selectedScrollSnap());
    embla.on("select", onSelect);
    const waiting = pending.current;
    pending.current = null;
    waiting?.(embla);
    return () => {
      embla.off("select", onSelect);
    };
  }, [embla]);

  const go = useCallback((i: number) => withEmbla((api) => api.scrollTo(i)), [withEmbla]);
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
          aria-label="Photo viewer: the left and right arrow keys change the photo; + and - zoom it in and out, and the arrow keys move a zoomed photo"
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
                <ZoomablePhoto
                  src={src}
                  alt={alts[i] ?? ""}
                  eager={i === 0}
                  zoomed={Boolean(zoomed[i])}
                  onZoomed={(on) => setZoom(i, on)}
                  controlsRef={(c) => {
                    controls.current[i] = c;
                  }}
                />
              </div>
            ))}
          </div>
        </div>
        <p className="mt-2 text-sm text-gray-700" aria-live="polite">
          {alts[selected]}
        </p>
        <p className="sr-only" aria-live="polite" data-testid="zoom-status">
          {zoomSaid}
        </p>
        {photos.length > 1 ? (
          <div className="mt-2 flex justify-between">
            <button type="button" onClick={() => withEmbla((api) => api.scrollPrev())} disabled={selected === 0} className="rounded bg-ink px-3 py-1 text-white disabled:opacity-40">
              Previous photo
            </button>
            <button
              type="button"
              onClick={() => withEmbla((api) => api.scrollNext())}
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

/** The scale a double tap or double click zooms to, and back out from. */
const ZOOM_SCALE = 2.5;
/** Longest wait from the first tap's release to the second tap for the two to be a double tap. */
const DOUBLE_TAP_MS = 500;
/** How far a finger or mouse may move during a tap, and how far apart the two taps may land, in CSS px. */
const TAP_SLOP_PX = 10;
const DOUBLE_TAP_SLOP_PX = 40;

interface Tap {
  x: number;
  y: number;
  at: number;
}

/**
 * Spots a double tap or double click in pointer events (touch, pen and mouse alike): two short,
 * still presses close together in place and time. A drag (a pan or a swipe) or a second finger
 * (a pinch) is not a tap. Calls onDoubleTap with the second press's point on screen.
 */
function useDoubleTap(onDoubleTap: (clientX: number, clientY: number) => void) {
  const down = useRef<(Tap & { id: number; multi: boolean }) | null>(null);
  const lastTap = useRef<Tap | null>(null);
  const pointers = useRef(new Set<number>());
  const onPointerDown = (event: PointerEvent) => {
    if (event.button !== 0) return;
    pointers.current.add(event.pointerId);
    const multi = pointers.current.size > 1;
    if (multi && down.current) down.current.multi = true;
    down.current = { id: event.pointerId, x: event.clientX, y: event.clientY, at: event.timeStamp, multi };
  };
  const onPointerUp = (event: PointerEvent) => {
    pointers.current.delete(event.pointerId);
    const press = down.current;
    if (!press || press.id !== event.pointerId) return;
    down.current = null;
    const moved = Math.hypot(event.clientX - press.x, event.clientY - press.y);
    if (press.multi || moved > TAP_SLOP_PX) {
      lastTap.current = null;
      return;
    }
    const previous = lastTap.current;
    if (previous && press.at - previous.at <= DOUBLE_TAP_MS && Math.hypot(press.x - previous.x, press.y - previous.y) <= DOUBLE_TAP_SLOP_PX) {
      // The pair is used up: a third tap starts a new double tap.
      lastTap.current = null;
      // After the touchend or mouseup that follows this pointerup: the zoom library's end of a
      // pan there would otherwise cancel the zoom's animation as soon as it starts.
      const { clientX, clientY } = event;
      setTimeout(() => onDoubleTap(clientX, clientY), 0);
    } else {
      lastTap.current = { x: event.clientX, y: event.clientY, at: event.timeStamp };
    }
  };
  const onPointerCancel = (event: PointerEvent) => {
    pointers.current.delete(event.pointerId);
    down.current = null;
    lastTap.current = null;
  };
  return { onPointerDown, onPointerUp, onPointerCancel };
}

/** The largest zoom. */
const ZOOM_MAX = 4;
/** How far one key press zooms (added to the scale) and moves a zoomed photo (a share of its frame). */
const KEY_ZOOM_STEP = 0.5;
const KEY_PAN_SHARE = 0.1;

/**
 * A zoom key on the photo `zoom` controls: + (or =) zooms in around the middle, - zooms out,
 * 0 or Escape shows the whole photo, and an arrow moves a zoomed photo by a tenth of its frame,
 * kept within its edges. Returns what to read out, or null when the key is not one of these
 * (an arrow on an unzoomed photo changes the photo).
 */
function keyZoom(zoom: ReactZoomPanPinchRef, key: string): string | null {
  const { positionX, positionY } = zoom.instance.state;
  const wrapper = zoom.instance.wrapperComponent;
  if (!wrapper) return null;
  // The scale the last key asked for while its animation may still run, else the photo's own.
  const last = keyTargets.get(zoom.instance);
  const scale = last && performance.now() - last.at < KEY_TARGET_KEPT_MS ? last.scale : zoom.instance.state.scale;
  const { width, height } = wrapper.getBoundingClientRect();
  /** A position kept within the photo's edges at scale `s`. */
  const within = (value: number, size: number, s: number) => Math.min(0, Math.max(size * (1 - s), value));
  /** Moves to scale `next`, keeping the point in the middle of the frame where it is. */
  const zoomTo = (next: number) => {
    const middleX = (width / 2 - positionX) / zoom.instance.state.scale;
    const middleY = (height / 2 - positionY) / zoom.instance.state.scale;
    keyTargets.set(zoom.instance, { scale: next, at: performance.now() });
    zoom.setTransform(within(width / 2 - middleX * next, width, next), within(height / 2 - middleY * next, height, next), next, KEY_ANIMATION_MS);
  };
  const percent = (s: number) => `Photo zoomed to ${Math.round(s * 100)}%`;
  if (key === "+" || key === "=") {
    const next = Math.min(ZOOM_MAX, scale + KEY_ZOOM_STEP);
    zoomTo(next);
    return percent(next);
  }
  if (key === "-" || key === "0" || key === "Escape") {
    if (scale <= 1.01) return key === "Escape" ? null : "Photo shown whole";
    const next = key === "-" ? Math.max(1, scale - KEY_ZOOM_STEP) : 1;
    zoomTo(next);
    return next <= 1.01 ? "Photo shown whole" : percent(next);
  }
  const moves: Record<string, [number, number]> = { ArrowLeft: [1, 0], ArrowRight: [-1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
  const move = moves[key];
  if (!move || scale <= 1.01) return null;
  zoom.setTransform(within(positionX + move[0] * width * KEY_PAN_SHARE, width, scale), within(positionY + move[1] * height * KEY_PAN_SHARE, height, scale), scale, 150);
  return "";
}

/**
 * How long a key's zoom takes; how long the next key counts from the scale it asked for rather
 * than the one the animation has reached (a slow device's frames come late); and the scale each
 * photo's last key asked for, and when, by the photo's zoom instance (which lasts as long as it).
 */
const KEY_ANIMATION_MS = 200;
const KEY_TARGET_KEPT_MS = 1_000;
const keyTargets = new WeakMap<ReactZoomPanPinchRef["instance"], { scale: number; at: number }>();

/** One photo that a double tap or double click zooms in at the point tapped, and the next one zooms back out. */
function ZoomablePhoto({
  src,
  alt,
  eager,
  zoomed,
  onZoomed,
  controlsRef,
}: {
  src: string;
  alt: string;
  eager: boolean;
  zoomed: boolean;
  onZoomed: (on: boolean) => void;
  /** Receives this photo's zoom controls (for the keys), and null when it goes. */
  controlsRef: (controls: ReactZoomPanPinchRef | null) => void;
}) {
  const zoom = useRef<ReactZoomPanPinchRef | null>(null);
  const toggle = (clientX: number, clientY: number) => {
    const controls = zoom.current;
    const wrapper = controls?.instance.wrapperComponent;
    if (!controls || !wrapper) return;
    if (controls.instance.state.scale > 1.01) {
      controls.resetTransform(200);
      return;
    }
    // Keep the point under the finger where it is: at scale 1 the photo is not moved, so the
    // point's offset in the wrapper is its offset in the photo.
    const rect = wrapper.getBoundingClientRect();
    const x = clientX - rect.left;
    const y = clientY - rect.top;
    controls.setTransform(x * (1 - ZOOM_SCALE), y * (1 - ZOOM_SCALE), ZOOM_SCALE, 200);
  };
  const doubleTap = useDoubleTap(toggle);
  // A double click or tap made before the page's scripts ran is held by the hydration bootstrap
  // (app/lib/hydration-bootstrap.js) and replayed as a dblclick of its own (not trusted) once
  // React is there; the pointer events it came from were gone by then. The browser's own
  // dblclick (trusted) is left alone: the pointer events above have handled it already.
  const onDoubleClick = (event: MouseEvent) => {
    if (!event.nativeEvent.isTrusted) toggle(event.clientX, event.clientY);
  };
  return (
    <TransformWrapper
      ref={(c) => {
        zoom.current = c;
        controlsRef(c);
      }}
      doubleClick={{ disabled: true }}
      maxScale={ZOOM_MAX}
      wheel={{ disabled: true }}
      // Unzoomed, a drag is a swipe for the carousel, not a pan.
      panning={{ disabled: !zoomed }}
      onTransform={(_ref, state) => onZoomed(state.scale > 1.01)}
    >
      <TransformComponent
        wrapperClass="!w-full"
        contentClass="!w-full"
        wrapperProps={{ "data-zoomed": zoomed ? "true" : "false", ...doubleTap, onDoubleClick } as HTMLAttributes<HTMLDivElement>}
      >
        <img src={src} alt={alt} width={1200} height={800} className="aspect-[3/2] w-full object-contain" loading={eager ? "eager" : "lazy"} data-testid="exhibit-photo" />
      </TransformComponent>
    </TransformWrapper>
  );
}
