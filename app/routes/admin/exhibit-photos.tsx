/**
 * /admin/exhibits/:id/photos: the exhibit's photos in the order members see them: drag (or
 * move) to reorder, describe each, choose the thumbnail and the matching photo, remove; and
 * upload several files at once (the form posts to ./photos/upload, streamed within its own
 * body limit).
 */
import { data, Form, Link, useActionData } from "react-router";
import type { Route } from "./+types/exhibit-photos";
import { ConsoleHeading, ConsoleNotice, inputProps } from "~/components/admin/ConsoleUi";
import { PhotoArranger } from "~/components/admin/PhotoArranger";
import { UnsavedChanges } from "~/components/admin/UnsavedChanges";
import { imageUrl } from "~/shared/images";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { uuidSchema } from "./console-schemas";
import { actorOf, consoleAnswer, formText, requireConsole, type ConsoleResult } from "./guard.server";
import { UPLOAD_NOTICES } from "./upload-notices";
import { formRecordVersion, resolvedForm } from "./edit-conflict.server";
import { MAX_IMAGE_ALT } from "~/shared/images";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireConsole(context, request, "collection");
  if (!uuidSchema.safeParse(params.id).success) throw data(null, { status: 404 });
  const exhibit = await context.services.admin.photos.get(params.id);
  if (!exhibit) throw data(null, { status: 404 });
  const code = new URL(request.url).searchParams.get("upload") ?? "";
  return {
    exhibit: { ...exhibit, photos: exhibit.photos.map((p) => ({ ...p, src: imageUrl(p.file, 150) })) },
    uploadNotice: UPLOAD_NOTICES[code] ?? null,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const staff = requireConsole(context, request, "collection");
  const limited = rateLimitedAnswer<ConsoleResult>(context, (message) => ({ ok: false, message }));
  if (limited) return limited;
  if (!uuidSchema.safeParse(params.id).success) throw data(null, { status: 404 });
  const form = resolvedForm(await request.formData());
  const version = formRecordVersion(form);
  const photos = context.services.admin.photos;
  const removing = formText(form, "remove");
  if (removing) return consoleAnswer(await photos.remove(actorOf(staff), params.id, removing, version));
  const order = form.getAll("order").filter((v): v is string => typeof v === "string");
  const move = /^(\d+):(-1|1)$/.exec(formText(form, "move"));
  if (move) {
    const from = Number(move[1]);
    const to = from + Number(move[2]);
    if (to >= 0 && to < order.length) [order[from], order[to]] = [order[to], order[from]];
  }
  const alts: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (key.startsWith("alt:") && typeof value === "string") alts[key.slice(4)] = value.slice(0, MAX_IMAGE_ALT);
  return consoleAnswer(await photos.arrange(actorOf(staff), params.id, { order, alts, thumbnail: formText(form, "thumbnail"), matching: formText(form, "matching"), version }));
}

export default function ExhibitPhotos({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  const { exhibit, uploadNotice } = loaderData;
  const errors = (result && "errors" in result ? result.errors : undefined) ?? {};
  return (
    <section className="max-w-4xl">
      <p className="mb-2 text-sm">
        <Link to={`/admin/exhibits/${exhibit.id}`} className="text-blue-800 underline">
          Back to {exhibit.title}
        </Link>
      </p>
      <ConsoleHeading>Photos: {exhibit.title}</ConsoleHeading>
      <ConsoleNotice result={result ?? uploadNotice} />
      {/* A changed order, description or choice asks before the page is left; a save (answered in place) ends the question. */}
      <UnsavedChanges saved={result}>
        <PhotoArranger photos={exhibit.photos} thumbnail={exhibit.thumbnail} matching={exhibit.matchingPhoto ?? ""} errors={errors} result={result} version={exhibit.version} />
      </UnsavedChanges>
      <h2 className="mt-8 mb-2 text-xl font-bold">Upload photos</h2>
      <p className="mb-3 text-sm">JPEG, PNG or WebP; up to 12 files of 15 MB and 40 megapixels each. Location and camera data are removed.</p>
      {/* It reloads the page: a changed arrangement not saved would be lost, so the browser asks first (decision 039). */}
      <Form method="post" encType="multipart/form-data" action={`/admin/exhibits/${exhibit.id}/photos/upload`} reloadDocument className="space-y-3" data-unsaved-leaves="">
        <div>
          <label htmlFor="upload-alt" className="block font-semibold">
            Description of the photos (for people who cannot see them)
          </label>
          <input {...inputProps("upload-alt")} name="alt" required maxLength={MAX_IMAGE_ALT} />
        </div>
        <div>
          <label htmlFor="upload-files" className="block font-semibold">
            Photo files
          </label>
          <input id="upload-files" name="photos" type="file" multiple required accept="image/jpeg,image/png,image/webp" className="block" />
        </div>
        <button type="submit" className="rounded bg-ink px-4 py-2 font-semibold text-gold hover:bg-steel">
          Upload
        </button>
      </Form>
    </section>
  );
}

export function meta() {
  return [{ title: "Exhibit photos | Staff console" }];
}
