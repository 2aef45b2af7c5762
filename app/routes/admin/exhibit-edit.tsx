/**
 * /admin/exhibits/:id (or new): every field the public pages use: team, category, titles, the
 * rich text (sanitized on the server), thumbnail and matching photo with their descriptions,
 * year, the active and favorite-story flags, and the enshrinees it is linked to. Deleting is
 * refused while enshrinees link to it.
 */
import { data, Form, Link, redirect, useActionData } from "react-router";
import type { Route } from "./+types/exhibit-edit";
import { UnsavedChanges } from "~/components/admin/UnsavedChanges";
import { EditConflict, typedCheckbox, typedChoice } from "~/components/admin/EditConflict";
import { VersionHistory } from "~/components/admin/VersionHistory";
import { ConsoleHeading, ConsoleNotice, Field, inputProps, NOTICES, PrimaryButton, PreviewButton, PreviewLink, SaveBar } from "~/components/admin/ConsoleUi";
import { RICH_TEXT_HINT, RichTextField } from "~/components/admin/RichTextField";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { exhibitSchema, formObject, uuidSchema } from "./console-schemas";
import { DeleteRecord } from "~/components/admin/TrashConfirm";
import { actorOf, consoleAnswer, formText, requireConsole, typedValues, type ConsoleResult } from "./guard.server";
import { formRecordVersion, resolvedForm, valuesWithTaken } from "./edit-conflict.server";
import { publishFieldsOf, withPublication } from "./publication.server";
import { PublishFields } from "~/components/admin/PublishFields";
import { MediaPicker } from "~/components/admin/MediaPicker";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireConsole(context, request, "collection");
  const notice = NOTICES[new URL(request.url).searchParams.get("notice") ?? ""] ?? null;
  const collection = context.services.admin.collection;
  const [teams, categories, enshrinees] = await Promise.all([collection.teams.options(), collection.categories.options(), collection.enshrinees.options()]);
  if (params.id === "new") return { exhibit: null, teams, categories, enshrinees, notice, publish: publishFieldsOf(context, undefined) };
  if (!uuidSchema.safeParse(params.id).success) throw data(null, { status: 404 });
  const exhibit = await collection.exhibits.get(params.id);
  if (!exhibit) throw data(null, { status: 404 });
  return { exhibit, teams, categories, enshrinees, notice, versions: await context.services.admin.versions.list("exhibit", exhibit.id), publish: publishFieldsOf(context, exhibit.publishAt) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const staff = requireConsole(context, request, "collection");
  const limited = rateLimitedAnswer<ConsoleResult>(context, (message) => ({ ok: false, message }));
  if (limited) return limited;
  const form = resolvedForm(await request.formData());
  const id = params.id === "new" ? null : params.id;
  if (id && !uuidSchema.safeParse(id).success) throw data(null, { status: 404 });
  const exhibits = context.services.admin.collection.exhibits;
  if (formText(form, "intent") === "delete" && id) {
    // Deleting asks first (TrashConfirm.tsx): without the confirmation's `confirm=yes`, the page asks.
    if (formText(form, "confirm") !== "yes") return redirect(`/admin/exhibits/${id}?delete=confirm`);
    const done = await exhibits.remove(actorOf(staff), id);
    return done.ok ? redirect("/admin/exhibits?notice=deleted") : consoleAnswer({ ...done, deleteRefused: true }, 409);
  }
  const parsed = exhibitSchema.safeParse(formObject(form, ["enshrineeIds"]));
  const checked = withPublication(context, form, parsed);
  if (!checked.ok) return checked.answer;
  const v = checked.value;
  const saved = await exhibits.save(
    actorOf(staff),
    id,
    { ...v, matchingPhoto: v.matchingPhoto || null, matchingPhotoAlt: v.matchingPhoto ? v.matchingPhotoAlt : null },
    formRecordVersion(form),
  );
  return saved.ok ? redirect(`/admin/exhibits/${saved.id}?notice=${saved.merged?.length ? "merged" : "saved"}`) : consoleAnswer({ ...saved, values: valuesWithTaken(typedValues(form), saved) }, 400);
}

const EXHIBIT_LABELS = {
  teamId: "Team",
  categoryId: "Category",
  title: "Title",
  shortTitle: "Short title",
  descriptionHtml: "Text (members only)",
  thumbnail: "Thumbnail",
  thumbnailAlt: "Thumbnail description",
  matchingPhoto: "Matching photo",
  matchingPhotoAlt: "Matching photo description",
  active: "Listed",
  year: "Year",
  favoriteStory: "Favorite story",
  enshrineeIds: "Enshrinees",
};

export default function ExhibitEdit({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  const errors = (result && "errors" in result ? result.errors : undefined) ?? {};
  const typed = (result && "values" in result ? result.values : undefined) ?? {};
  const { exhibit: x, teams, categories, enshrinees } = loaderData;
  return (
    <section className="max-w-3xl">
      <ConsoleHeading>{x ? `Exhibit: ${x.title}` : "New exhibit"}</ConsoleHeading>
      <ConsoleNotice result={result ?? (loaderData.notice ? { ok: true, message: loaderData.notice } : null)} />
      <UnsavedChanges>
        <Form method="post" className="space-y-4" key={x?.version}>
          <EditConflict result={result} version={x?.version} labels={EXHIBIT_LABELS} names={Object.fromEntries([...teams, ...categories, ...enshrinees].map((o) => [o.id, o.name]))} />
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Team" name="teamId" error={errors.teamId}>
              <select {...inputProps("teamId", errors.teamId)} defaultValue={typed.teamId ?? x?.teamId ?? ""} required>
                <option value="">Choose a team</option>
                {teams.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </select>
            </Field>
            <Field label="Category" name="categoryId" error={errors.categoryId}>
              <select {...inputProps("categoryId", errors.categoryId)} defaultValue={typed.categoryId ?? x?.categoryId ?? ""} required>
                <option value="">Choose a category</option>
                {categories.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            </Field>
          </div>
          <Field label="Title" name="title" error={errors.title}>
            <input {...inputProps("title", errors.title)} defaultValue={typed.title ?? x?.title} required />
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Short title (what visitors see)" name="shortTitle" error={errors.shortTitle}>
              <input {...inputProps("shortTitle", errors.shortTitle)} defaultValue={typed.shortTitle ?? x?.shortTitle} required />
            </Field>
            <Field label="Year" name="year" error={errors.year}>
              <input {...inputProps("year", errors.year)} type="number" min={1850} max={2100} defaultValue={typed.year ?? x?.year ?? new Date().getFullYear()} required />
            </Field>
          </div>
          <Field
            label="Text (members only)"
            name="descriptionHtml"
            error={errors.descriptionHtml}
            hint={RICH_TEXT_HINT}
          >
            <RichTextField name="descriptionHtml" label="Text (members only)" initial={typed.descriptionHtml ?? x?.descriptionHtml ?? x?.description ?? ""} error={errors.descriptionHtml} />
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <MediaPicker id="thumbnail" name="thumbnail" label="Thumbnail" value={typed.thumbnail ?? x?.thumbnail} error={errors.thumbnail} altField="thumbnailAlt" />
            <Field label="Thumbnail description" name="thumbnailAlt" error={errors.thumbnailAlt}>
              <input {...inputProps("thumbnailAlt", errors.thumbnailAlt)} defaultValue={typed.thumbnailAlt ?? x?.thumbnailAlt} />
            </Field>
            <MediaPicker id="matchingPhoto" name="matchingPhoto" label="Matching photo (optional)" value={typed.matchingPhoto ?? x?.matchingPhoto ?? ""} error={errors.matchingPhoto} altField="matchingPhotoAlt" optional />
            <Field label="Matching photo description" name="matchingPhotoAlt" error={errors.matchingPhotoAlt}>
              <input {...inputProps("matchingPhotoAlt", errors.matchingPhotoAlt)} defaultValue={typed.matchingPhotoAlt ?? x?.matchingPhotoAlt ?? ""} />
            </Field>
          </div>
          <fieldset className="flex flex-wrap gap-6">
            <legend className="sr-only">Flags</legend>
            <label className="flex items-center gap-2">
              <input type="checkbox" name="active" defaultChecked={typedCheckbox(result, "active", x?.active ?? true)} /> Listed (shown on the category page)
            </label>
            <label className="flex items-center gap-2">
              <input type="checkbox" name="favoriteStory" defaultChecked={typedCheckbox(result, "favoriteStory", x?.favoriteStory ?? false)} /> Favorite story
            </label>
          </fieldset>
          <fieldset>
            <legend className="font-semibold">Enshrinees (their Exhibits and Mentions list this exhibit)</legend>
            {errors.enshrineeIds ? <p className="text-sm font-semibold text-red-800">{errors.enshrineeIds}</p> : null}
            <div className="mt-2 grid max-h-64 gap-1 overflow-y-auto rounded border border-stone-300 p-2 sm:grid-cols-2">
              {enshrinees.map((e) => (
                <label key={e.id} className="flex items-center gap-2 text-sm">
                  <input type="checkbox" name="enshrineeIds" value={e.id} defaultChecked={typedChoice(result, "enshrineeIds", x?.enshrineeIds)?.includes(e.id) ?? false} /> {e.name}
                </label>
              ))}
            </div>
          </fieldset>
          <PublishFields initial={loaderData.publish} errors={errors} typed={typed} />
          <SaveBar>
            <PrimaryButton>Save exhibit</PrimaryButton>
            <PreviewButton to={`/admin/exhibits/${x?.id ?? "new"}/preview`} />
            {x ? (
              <>
                <Link to={`/admin/exhibits/${x.id}/photos`} className="font-semibold text-blue-800 underline">
                  Photos ({x.photos.length})
                </Link>
                <PreviewLink to={`/admin/exhibits/${x.id}/preview`} />
              </>
            ) : null}
          </SaveBar>
        </Form>
      </UnsavedChanges>
      {x ? (
        <DeleteRecord what={x.title} label="Delete this exhibit" rule="An exhibit that enshrinees link to cannot be deleted: untick them under Enshrinees above and save first. (An enshrinee can be deleted with their links: the Trash keeps them.)" />
      ) : null}
      {"versions" in loaderData && x ? <VersionHistory versions={loaderData.versions} base={`/admin/exhibits/${x.id}`} covers="A version covers the fields above and the linked enshrinees; the photos are kept as the Photos page arranges them." /> : null}
    </section>
  );
}

export function meta() {
  return [{ title: "Exhibit | Staff console" }];
}
