/**
 * /admin/teams/:id (or /admin/teams/new): a team's fields, and deleting it (refused while it has
 * exhibits). The logo file is part of the form (decision 039): "Upload logo" stores it and
 * sends the form back as typed with the new file in the Logo field, nothing saved; a file chosen
 * and then "Save team" is stored and used at once. Without JavaScript too.
 */
import { data, Form, useActionData } from "react-router";
import type { Route } from "./+types/team-edit";
import { UnsavedChanges } from "~/components/admin/UnsavedChanges";
import { EditConflict } from "~/components/admin/EditConflict";
import { VersionHistory } from "~/components/admin/VersionHistory";
import { ConsoleHeading, ConsoleNotice, Field, inputProps, NOTICES, PreviewButton, PreviewLink, PrimaryButton, SaveBar } from "~/components/admin/ConsoleUi";
import { teamSchema, uuidSchema } from "./console-schemas";
import { DeleteRecord } from "~/components/admin/TrashConfirm";
import { requireConsole } from "./guard.server";
import { saveOrDeleteRecord } from "./record-edit.server";
import { MediaPicker } from "~/components/admin/MediaPicker";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireConsole(context, request, "collection");
  const url = new URL(request.url);
  const notice = NOTICES[url.searchParams.get("notice") ?? ""] ?? null;
  if (params.id === "new") return { team: null, notice };
  if (!uuidSchema.safeParse(params.id).success) throw data(null, { status: 404 });
  const team = await context.services.admin.collection.teams.get(params.id);
  if (!team) throw data(null, { status: 404 });
  return { team, notice, versions: await context.services.admin.versions.list("team", team.id) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  return saveOrDeleteRecord({
    context,
    request,
    id: params.id,
    records: context.services.admin.collection.teams,
    schema: teamSchema,
    listPath: "/admin/teams",
    image: { file: "logoFile", folder: "logos", into: "logo", uploadIntent: "upload-logo", uploaded: LOGO_UPLOADED },
  });
}

const LOGO_UPLOADED = "Logo uploaded: save the team to use it.";

export default function TeamEdit({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  const errors = (result && "errors" in result ? result.errors : undefined) ?? {};
  const typed = (result && "values" in result ? result.values : undefined) ?? {};
  const t = loaderData.team;
  return (
    <section className="max-w-3xl">
      <ConsoleHeading>{t ? `Team: ${t.name}` : "New team"}</ConsoleHeading>
      <ConsoleNotice result={result ?? (typeof loaderData.notice === "string" ? { ok: true, message: loaderData.notice } : loaderData.notice)} />
      <UnsavedChanges>
        <Form method="post" encType="multipart/form-data" className="space-y-4" key={t?.version}>
          {/* Enter in a text field saves (the first submit button is the default one), never uploads. */}
          <button type="submit" className="hidden" tabIndex={-1} aria-hidden="true">
            Save team
          </button>
          <EditConflict result={result} version={t?.version} labels={{ name: "Name", league: "League", logo: "Logo", headline: "Headline", description: "Summary and description", sortOrder: "Order on the home page" }} />
          <Field label="Name" name="name" error={errors.name}>
            <input {...inputProps("name", errors.name)} defaultValue={typed.name ?? t?.name} required />
          </Field>
          <Field label="League" name="league" error={errors.league}>
            <input {...inputProps("league", errors.league)} defaultValue={typed.league ?? t?.league} required />
          </Field>
          {/* A new answer (an upload) shows its logo even where the field was edited, and empties the file input. */}
          <MediaPicker id="logo" name="logo" label="Logo" key={`logo-${typed.logo ?? ""}`} value={typed.logo ?? t?.logo} error={errors.logo} publicOnly />
          <div className="flex flex-wrap items-end gap-3 rounded border border-dashed border-stone-500 p-3 text-sm">
            <div>
              <label htmlFor="logoFile" className="block font-semibold">
                Upload a new logo
              </label>
              <input id="logoFile" name="logoFile" type="file" key={`file-${typed.logo ?? ""}`} accept="image/jpeg,image/png,image/webp" aria-describedby="logoFile-hint" />
            </div>
            <button type="submit" name="intent" value="upload-logo" formNoValidate className="rounded bg-ink px-3 py-1 font-semibold text-gold hover:bg-steel">
              Upload logo
            </button>
            <p id="logoFile-hint" className="w-full text-stone-700">
              JPEG, PNG or WebP; 15 MB and 40 megapixels at most; location and camera data are removed. Nothing else is saved until you save the team.
            </p>
          </div>
          <Field label="Headline" name="headline" error={errors.headline}>
            <input {...inputProps("headline", errors.headline)} defaultValue={typed.headline ?? t?.headline} required />
          </Field>
          <Field label="Summary and description" name="description" error={errors.description}>
            <textarea {...inputProps("description", errors.description)} defaultValue={typed.description ?? t?.description} rows={8} required />
          </Field>
          <Field label="Order on the home page" name="sortOrder" error={errors.sortOrder}>
            <input {...inputProps("sortOrder", errors.sortOrder)} type="number" min={0} defaultValue={typed.sortOrder ?? t?.sortOrder ?? 0} />
          </Field>
          <SaveBar>
            <PrimaryButton>Save team</PrimaryButton>
            <PreviewButton to={`/admin/teams/${t?.id ?? "new"}/preview`} />
            {t ? <PreviewLink to={`/admin/teams/${t.id}/preview`} /> : null}
          </SaveBar>
        </Form>
      </UnsavedChanges>
      {t ? (
        <DeleteRecord what={t.name} label="Delete this team" rule="A team with exhibits cannot be deleted: move or delete its exhibits first." />
      ) : null}
      {"versions" in loaderData && t ? <VersionHistory versions={loaderData.versions} base={`/admin/teams/${t.id}`} /> : null}
    </section>
  );
}

export function meta() {
  return [{ title: "Team | Staff console" }];
}
