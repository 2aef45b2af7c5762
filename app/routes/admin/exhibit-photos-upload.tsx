/**
 * POST /admin/exhibits/:id/photos/upload: several photo files at once, read as a stream within
 * the upload's body limit (server/http/body-limits.ts) and parsed part by part
 * (@remix-run/form-data-parser). Each file is decoded, checked and stored without metadata as
 * it arrives; if any file (or the description) is refused, the files already stored for this
 * upload are removed and nothing is added. Answers with a redirect to the photos page.
 */
import { parseFormData, type FileUpload } from "@remix-run/form-data-parser";
import { data, redirect } from "react-router";
import type { Route } from "./+types/exhibit-photos-upload";
import { singleLineText } from "~/shared/text-fields";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { uuidSchema } from "./console-schemas";
import { actorOf, formText, requireConsole } from "./guard.server";
import { uploadErrorCode } from "./upload-errors.server";
import { MAX_IMAGE_ALT } from "~/shared/images";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireConsole(context, request, "collection");
  return redirect(`/admin/exhibits/${params.id}/photos`);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const staff = requireConsole(context, request, "collection");
  const back = (code: string, status = 303) => redirect(`/admin/exhibits/${params.id}/photos?upload=${code}`, status);
  if (rateLimitedAnswer(context, (message) => message)) return back("broken");
  if (!uuidSchema.safeParse(params.id).success) throw data(null, { status: 404 });
  const photos = context.services.admin.photos;
  if (!(await photos.get(params.id))) throw data(null, { status: 404 });
  const stored: string[] = [];
  let form: FormData;
  try {
    form = await parseFormData(request, { maxFiles: photos.limits.maxFiles, maxFileSize: photos.limits.maxFileBytes }, async (file: FileUpload) => {
      if (file.fieldName !== "photos" || (file.name === "" && file.size === 0)) return null;
      stored.push(await photos.store(params.id, Buffer.from(await file.arrayBuffer()), file.name || "A file"));
      return null;
    });
  } catch (error) {
    await photos.discard(stored);
    const code = uploadErrorCode(error, photos.rejection);
    if (code) return back(code);
    context.logger.warn({ err: error }, "photo upload could not be read");
    return back("broken");
  }
  const alt = singleLineText("Description", { max: MAX_IMAGE_ALT }).catch("").parse(formText(form, "alt").slice(0, MAX_IMAGE_ALT));
  if (!alt) {
    await photos.discard(stored);
    return back("alt");
  }
  if (stored.length === 0) return back("empty");
  const saved = await photos.add(actorOf(staff), params.id, stored, alt);
  return back(saved.ok ? "done" : "broken");
}
