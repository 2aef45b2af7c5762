/**
 * Which media files need a valid museum ticket: everything under exhibits/ (photos, thumbnails,
 * matching photos). Team logos, home banners and enshrinee portraits (decision 033) are public.
 * Unknown folders fail closed.
 */
const PUBLIC_FOLDERS = new Set(["logos", "banners", "portraits", "library"]);

export function isMemberOnlyImage(file: string): boolean {
  const first = file.split("/").find((segment) => segment !== "" && segment !== ".");
  return first === undefined || !PUBLIC_FOLDERS.has(first);
}

/**
 * The files that belong to one exhibit or enshrinee (photos, thumbnails, matching photos,
 * portraits): served to visitors and members only while a record visible now names them, else 404
 * (decision 047). Logos and banners are shared site images and stay public.
 */
export function isRecordImage(file: string): boolean {
  const first = file.split("/").find((segment) => segment !== "" && segment !== ".");
  return first === "exhibits" || first === "portraits";
}
