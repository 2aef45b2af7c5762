/**
 * Image addresses and the fixed set of rendition heights (decision 009). Spec section 9: logos
 * served from images/view/ get ?height=150, exhibit thumbnails ?height=200. The server renders
 * only the heights in IMAGE_HEIGHTS and answers 400 for any other, so every address built here
 * must use one of them.
 */
export const LOGO_HEIGHT = 150;
export const THUMBNAIL_HEIGHT = 200;
export const PHOTO_HEIGHT = 800;
/** An enshrinee's portrait on their page (the Wall of Fame shows it at LOGO_HEIGHT). */
export const PORTRAIT_HEIGHT = 400;
/** The small photo buttons under an exhibit's photo carousel. */
export const PHOTO_STRIP_HEIGHT = 80;

/**
 * Every height the image route renders: the ones the pages use (80 photo strip, 150 logo,
 * 200 thumbnail, 600 desktop banner, 800 photo, 1000 mobile banner) and the 2x `srcset`
 * companions of logos and thumbnails (300, 400). Ascending.
 */
export const IMAGE_HEIGHTS = [80, 150, 200, 300, 400, 600, 800, 1000] as const;
export type ImageHeight = (typeof IMAGE_HEIGHTS)[number];
/** The tallest rendition; an address without a height gets the original capped to this. */
export const MAX_IMAGE_HEIGHT: ImageHeight = IMAGE_HEIGHTS[IMAGE_HEIGHTS.length - 1];

export function isImageHeight(height: number): height is ImageHeight {
  return (IMAGE_HEIGHTS as readonly number[]).includes(height);
}

/** The smallest allowed height at least `height` tall (the tallest one when none is). */
export function renditionHeight(height: number): ImageHeight {
  return IMAGE_HEIGHTS.find((h) => h >= height) ?? MAX_IMAGE_HEIGHT;
}

/** The address of a media file; a height is rounded up to an allowed rendition height. */
export function imageUrl(file: string, height?: number): string {
  const path = `/images/view/${file.split("/").map(encodeURIComponent).join("/")}`;
  return height ? `${path}?height=${renditionHeight(height)}` : path;
}

/** Adds the logo height to an address that points into images/view/ (and only then). */
export function logoUrl(src: string): string {
  if (!src.includes("images/view/") || /[?&]height=/.test(src)) return src;
  return `${src}${src.includes("?") ? "&" : "?"}height=${LOGO_HEIGHT}`;
}

/** The same images/view/ address at another allowed height (other addresses are left alone). */
export function withImageHeight(src: string, height: number): string {
  if (!src.includes("images/view/")) return src;
  const h = renditionHeight(height);
  if (/[?&]height=\d*/.test(src)) return src.replace(/([?&])height=\d*/, `$1height=${h}`);
  return `${src}${src.includes("?") ? "&" : "?"}height=${h}`;
}

/**
 * A `srcset` offering the 2x rendition next to `src` (rendered at `height`), or undefined when
 * the doubled height is not one the server renders or `src` is not an images/view/ address.
 */
export function imageSrcSet(src: string, height: number): string | undefined {
  if (!src.includes("images/view/") || !isImageHeight(height * 2)) return undefined;
  return `${withImageHeight(src, height)} 1x, ${withImageHeight(src, height * 2)} 2x`;
}

/** The smallest rendition a banner's `srcset` offers: below it a phone's slide would look soft. */
const BANNER_SMALLEST_HEIGHT = 300;

/** The heights a banner slide of `slideHeight` pixels is offered at in its `srcset`, ascending. */
export function bannerHeights(slideHeight: number): ImageHeight[] {
  return IMAGE_HEIGHTS.filter((h) => h >= BANNER_SMALLEST_HEIGHT && h <= slideHeight);
}

/** The longest description (alt text) kept for an image: a photo, a portrait, a banner slide. */
export const MAX_IMAGE_ALT = 300;
