/**
 * Which media files need a valid museum ticket: everything under exhibits/ (photos, thumbnails,
 * matching photos). Team logos, home banners and enshrinee portraits (decision 033) are public.
 * Unknown folders fail closed.
 */
const PUBLIC_FOLDERS = new Set(["logos", "banners", "portraits"]);

export function isMemberOnlyImage(file: string): boolean {
  const first = file.split("/").find((segment) => segment !== "" && segment !== ".");
  return first === undefined || !PUBLIC_FOLDERS.has(first);
}
