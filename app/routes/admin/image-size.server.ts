/**
 * A banner slide's width and height come from its image file (decision 061), never from the
 * form: read by the media library from the stored file and written into the form before it is
 * checked, so a slide saved or previewed always carries its image's real size.
 */
import type { AppLoadContext } from "react-router";
import { formText } from "./guard.server";

export const IMAGE_NOT_IN_LIBRARY = "That image is not in the media library: choose one from the library.";

/** Sets `width` and `height` of `form` from its `file`; the message for the file field when it cannot be read. */
export async function withImageSize(context: AppLoadContext, form: FormData): Promise<string | null> {
  form.delete("width");
  form.delete("height");
  const file = formText(form, "file");
  if (!file) return null;
  const size = await context.services.admin.media.size(file);
  if (!size) return IMAGE_NOT_IN_LIBRARY;
  form.set("width", String(size.width));
  form.set("height", String(size.height));
  return null;
}
