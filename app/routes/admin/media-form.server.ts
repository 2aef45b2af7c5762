/**
 * The media library's posts (decision 061): several image files at once (multipart, streamed
 * within the route's body limit), or a description or a delete (url-encoded). Every file is read
 * before any is stored, so a post over the file count stores nothing; then each file is checked
 * and stored on its own (photo-upload.ts): a refused file gets its own message, the good ones are
 * saved.
 */
import { parseFormData, type FileUpload } from "@remix-run/form-data-parser";
import { data, type AppLoadContext } from "react-router";
import { uploadErrorCode } from "./upload-errors.server";
import { UPLOAD_NOTICES } from "./upload-notices";

const BODY_LIMIT = 64 * 1024 * 1024;

export interface LibraryUpload {
  /** Keys stored from this post, in the order chosen. */
  saved: string[];
  /** One message per refused file, naming it. */
  refused: string[];
}

/** Reads a library post; the files chosen under `files` are stored when `intent` is upload. */
export async function readLibraryPost(context: AppLoadContext, request: Request, actor: { userId: string | null; email: string }): Promise<{ form: FormData; upload: LibraryUpload | null }> {
  if (!(request.headers.get("content-type") ?? "").startsWith("multipart/form-data")) return { form: await request.formData(), upload: null };
  const photos = context.services.admin.photos;
  const chosen: { name: string; bytes: Buffer }[] = [];
  const refused: string[] = [];
  let form: FormData;
  try {
    form = await parseFormData(request, { maxFiles: photos.limits.maxFiles, maxFileSize: BODY_LIMIT }, async (file: FileUpload) => {
      if (file.fieldName !== "files" || (file.name === "" && file.size === 0)) return null;
      const name = file.name || "A file";
      if (file.size > photos.limits.maxFileBytes) refused.push(`${name} is larger than 15 MB.`);
      else chosen.push({ name, bytes: Buffer.from(await file.arrayBuffer()) });
      return null;
    });
  } catch (error) {
    for (let e: unknown = error; e instanceof Error; e = e.cause) if (e.name === "BodyTooLargeError") throw data(UPLOAD_NOTICES["too-large"].message, { status: 413 });
    const code = uploadErrorCode(error, photos.rejection);
    if (!code) context.logger.warn({ err: error }, "media library upload could not be read");
    throw data(UPLOAD_NOTICES[code ?? "broken"].message, { status: code === "too-large" ? 413 : 400 });
  }
  const saved: string[] = [];
  for (const file of chosen) {
    try {
      saved.push((await context.services.admin.media.upload(actor, file.bytes, file.name)).key);
    } catch (error) {
      if (!photos.rejection(error)) throw error;
      refused.push((error as Error).message);
    }
  }
  return { form, upload: { saved, refused } };
}

/** What the page says after an upload: how many were saved, then each refused file's reason. */
export function uploadMessage({ saved, refused }: LibraryUpload): string {
  if (!saved.length && !refused.length) return UPLOAD_NOTICES.empty.message;
  const done = saved.length ? `${saved.length} image${saved.length === 1 ? "" : "s"} uploaded.` : "Nothing was uploaded.";
  return refused.length ? `${done} Not uploaded: ${refused.join(" ")}` : done;
}
