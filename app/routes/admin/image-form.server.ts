/**
 * An edit form that carries its own image file (decision 039): the team form's logo. The form
 * posts multipart (its url-encoded posts, delete and its confirmation, are read the same way),
 * streamed within its route's body limit ("console form with an image"). The one file is checked
 * by decoding and stored without metadata like every console upload; a file that is refused
 * (too large, not a photo, damaged) does not stop the reading, so the typed fields always come
 * back with the reason.
 */
import { parseFormData, type FileUpload } from "@remix-run/form-data-parser";
import { data, type AppLoadContext } from "react-router";
import { uploadErrorCode } from "./upload-errors.server";
import { UPLOAD_NOTICES } from "./upload-notices";

/** The route's body limit ("console form with an image", server/http/body-limits.ts), which the host's stream enforces. */
const BODY_LIMIT = 64 * 1024 * 1024;

type StoredImage = { key: string; width: number; height: number };

export interface ImageForm<T = StoredImage> {
  form: FormData;
  /** The file stored from this post, if one was chosen and accepted. */
  image: T | null;
  /** Why the chosen file was refused (an UPLOAD_NOTICES code), or null. */
  refused: string | null;
}

/**
 * Reads the post; a body that cannot be read whole (cut off, over the limit, two files) is a 4xx page.
 * The file goes into a public media folder, or to `keep` (an enshrinee's portrait, stored by the
 * page once it knows what was asked).
 */
export async function readImageForm(context: AppLoadContext, request: Request, field: string, folder: "logos" | "banners"): Promise<ImageForm>;
export async function readImageForm<T>(context: AppLoadContext, request: Request, field: string, keep: (bytes: Buffer, name: string) => Promise<T>): Promise<ImageForm<T>>;
export async function readImageForm(context: AppLoadContext, request: Request, field: string, target: "logos" | "banners" | ((bytes: Buffer, name: string) => Promise<unknown>)): Promise<ImageForm<unknown>> {
  const photos = context.services.admin.photos;
  const store = typeof target === "function" ? target : (bytes: Buffer, name: string) => photos.storePublic(target, bytes, name);
  let image: unknown = null;
  let refused: string | null = null;
  try {
    // The parser's own per-file limit is the body's: a file over the photo limit is refused by
    // the handler below, and the fields after it are still read.
    const form = await parseFormData(request, { maxFiles: 1, maxFileSize: BODY_LIMIT }, async (file: FileUpload) => {
      // No file chosen: browsers send an empty part.
      if (file.fieldName !== field || file.size === 0) return null;
      if (file.size > photos.limits.maxFileBytes) {
        refused = "file-size";
        return null;
      }
      try {
        image = await store(Buffer.from(await file.arrayBuffer()), file.name || "The file");
      } catch (error) {
        refused = photos.rejection(error);
        if (!refused) throw error;
      }
      return null;
    });
    return { form, image, refused };
  } catch (error) {
    const stored = typeof target === "function" ? null : (image as StoredImage | null);
    if (stored) await photos.discard([stored.key]);
    // Past the route's limit (a streamed body): the host's own message, with the limit of this body's type.
    for (let e: unknown = error; e instanceof Error; e = e.cause) if (e.name === "BodyTooLargeError") throw data(e.message, { status: 413 });
    const code = uploadErrorCode(error, photos.rejection);
    if (!code) context.logger.warn({ err: error }, "edit form with an image could not be read");
    throw data(UPLOAD_NOTICES[code ?? "broken"].message, { status: code === "too-large" ? 413 : 400 });
  }
}
