/**
 * Image addresses. Spec section 9: logos served from images/view/ get ?height=150, exhibit
 * thumbnails ?height=200.
 */
export const LOGO_HEIGHT = 150;
export const THUMBNAIL_HEIGHT = 200;
export const PHOTO_HEIGHT = 800;

export function imageUrl(file: string, height?: number): string {
  const path = `/images/view/${file.split("/").map(encodeURIComponent).join("/")}`;
  return height ? `${path}?height=${height}` : path;
}

/** Adds the logo height to an address that points into images/view/ (and only then). */
export function logoUrl(src: string): string {
  if (!src.includes("images/view/") || /[?&]height=/.test(src)) return src;
  return `${src}${src.includes("?") ? "&" : "?"}height=${LOGO_HEIGHT}`;
}
