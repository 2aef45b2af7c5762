/**
 * POST /admin/enshrinees/:id/portrait: the enshrinee's portrait (decision 033). One photo file
 * with its description, streamed within the upload's body limit and cleaned exactly like
 * exhibit photos (decoded, re-encoded without EXIF/GPS); without a file, the description of the
 * current portrait is saved; `intent=remove` removes it. Answers with a redirect to the
 * enshrinee's page, whose portrait panel shows the outcome (`?portrait=<code>`).
 */
import { parseFormData, type FileUpload } from "@remix-run/form-data-parser";
import { data, redirect } from "react-router";
import type { Route } from "./+types/enshrinee-portrait";
import { singleLineText } from "~/shared/text-fields";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { uuidSchema } from "./console-schemas";
import { actorOf, formText, requireConsole } from "./guard.server";
import { uploadErrorCode } from "./upload-errors.server";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireConsole(context, request, "collection");
  return redirect(`/admin/enshrinees/${params.id}`);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const staff = requireConsole(context, request, "collection");
  const back = (code: string) => redirect(`/admin/enshrinees/${params.id}?portrait=${code}#portrait`, 303);
  if (rateLimitedAnswer(context, (message) => message)) return back("broken");
  if (!uuidSchema.safeParse(params.id).success) throw data(null, { status: 404 });
  const portraits = context.services.admin.portraits;
  const current = await portraits.get(params.id);
  if (!current) throw data(null, { status: 404 });
  const photos = context.services.admin.photos;
  let stored: string | null = null;
  let form: FormData;
  try {
    form = await parseFormData(request, { maxFiles: 1, maxFileSize: photos.limits.maxFileBytes }, async (file: FileUpload) => {
      if (file.fieldName !== "portrait" || (file.name === "" && file.size === 0)) return null;
      stored = await portraits.store(params.id, Buffer.from(await file.arrayBuffer()), file.name || "The file");
      return null;
    });
  } catch (error) {
    if (stored) await portraits.discard(stored);
    const code = uploadErrorCode(error, photos.rejection);
    if (code) return back(code);
    context.logger.warn({ err: error }, "portrait upload could not be read");
    return back("broken");
  }
  const file = stored as string | null;
  const actor = actorOf(staff);
  if (formText(form, "intent") === "remove") {
    if (file) await portraits.discard(file);
    const removed = await portraits.remove(actor, params.id);
    return back(removed.ok ? "removed" : "broken");
  }
  const alt = singleLineText("Description", { max: 300 }).catch("").parse(formText(form, "alt").slice(0, 300));
  if (!alt) {
    if (file) await portraits.discard(file);
    return back("alt");
  }
  if (!file) {
    if (!current.portrait) return back("empty");
    const described = await portraits.describe(actor, params.id, alt);
    return back(described.ok ? "described" : "broken");
  }
  const saved = await portraits.set(actor, params.id, file, alt);
  return back(saved.ok ? "done" : "broken");
}
