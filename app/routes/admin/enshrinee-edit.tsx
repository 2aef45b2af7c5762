/**
 * /admin/enshrinees/:id (or new): an enshrinee's names and biography; their Exhibits and
 * Mentions are the exhibits linked to them (linked on each exhibit's page). The portrait is part
 * of the form (decision 039): "Save portrait" saves it at once and answers the form as typed,
 * also without JavaScript.
 */
import { data, Form, Link, useActionData } from "react-router";
import type { Route } from "./+types/enshrinee-edit";
import { UnsavedChanges } from "~/components/admin/UnsavedChanges";
import { EditConflict } from "~/components/admin/EditConflict";
import { VersionHistory } from "~/components/admin/VersionHistory";
import { ConsoleHeading, ConsoleNotice, Field, inputProps, NOTICES, PreviewButton, PreviewLink, PrimaryButton, SaveBar } from "~/components/admin/ConsoleUi";
import { PortraitField } from "~/components/admin/PortraitField";
import { RICH_TEXT_HINT, RichTextField } from "~/components/admin/RichTextField";
import { enshrineeSchema, uuidSchema } from "./console-schemas";
import { DeleteRecord } from "~/components/admin/TrashConfirm";
import { requireConsole } from "./guard.server";
import { saveOrDeleteRecord } from "./record-edit.server";
import { portraitInForm } from "./portrait-form.server";
import { publishFieldsOf } from "./publication.server";
import { PublishFields } from "~/components/admin/PublishFields";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireConsole(context, request, "collection");
  const notice = NOTICES[new URL(request.url).searchParams.get("notice") ?? ""] ?? null;
  if (params.id === "new") return { enshrinee: null, notice, publish: publishFieldsOf(context, undefined) };
  if (!uuidSchema.safeParse(params.id).success) throw data(null, { status: 404 });
  const enshrinee = await context.services.admin.collection.enshrinees.get(params.id);
  if (!enshrinee) throw data(null, { status: 404 });
  return { enshrinee, notice, versions: await context.services.admin.versions.list("enshrinee", enshrinee.id), publish: publishFieldsOf(context, enshrinee.publishAt) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const id = uuidSchema.safeParse(params.id).success ? (params.id ?? null) : null;
  return saveOrDeleteRecord({
    context,
    request,
    id: params.id,
    records: context.services.admin.collection.enshrinees,
    schema: enshrineeSchema,
    listPath: "/admin/enshrinees",
    publication: true,
    attached: portraitInForm(context, request, id),
  });
}

export default function EnshrineeEdit({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  const errors = (result && "errors" in result ? result.errors : undefined) ?? {};
  const typed = (result && "values" in result ? result.values : undefined) ?? {};
  const e = loaderData.enshrinee;
  // An answer of the portrait's own buttons is shown in the portrait panel.
  const portraitResult = typed.portraitAnswer === "yes" && result && "message" in result ? result : null;
  return (
    <section className="max-w-3xl">
      <ConsoleHeading>{e ? `Enshrinee: ${e.fullName}` : "New enshrinee"}</ConsoleHeading>
      <ConsoleNotice result={portraitResult ? null : (result ?? (loaderData.notice ? { ok: true, message: loaderData.notice } : null))} />
      <UnsavedChanges>
        <Form method="post" encType="multipart/form-data" className="space-y-4" key={e?.version}>
          {/* Enter in a text field saves the enshrinee (the first submit button is the default one). */}
          <button type="submit" className="hidden" tabIndex={-1} aria-hidden="true">
            Save enshrinee
          </button>
          <EditConflict result={result} version={e?.version} labels={{ fullName: "Full name", firstName: "First name", lastName: "Last name", biography: "Biography" }} />
          <Field label="Full name" name="fullName" error={errors.fullName}>
            <input {...inputProps("fullName", errors.fullName)} defaultValue={typed.fullName ?? e?.fullName} required />
          </Field>
          <Field label="First name" name="firstName" error={errors.firstName}>
            <input {...inputProps("firstName", errors.firstName)} defaultValue={typed.firstName ?? e?.firstName} required />
          </Field>
          <Field label="Last name" name="lastName" error={errors.lastName}>
            <input {...inputProps("lastName", errors.lastName)} defaultValue={typed.lastName ?? e?.lastName} required />
          </Field>
          <Field label="Biography (members only)" name="biography" error={errors.biography} hint={RICH_TEXT_HINT}>
            <RichTextField name="biography" label="Biography (members only)" initial={typed.biography ?? e?.biographyHtml ?? e?.biography ?? ""} error={errors.biography} rows={10} />
          </Field>
          <PublishFields initial={loaderData.publish} errors={errors} typed={typed} />
          <SaveBar>
            <PrimaryButton>Save enshrinee</PrimaryButton>
            <PreviewButton to={`/admin/enshrinees/${e?.id ?? "new"}/preview`} />
            {e ? <PreviewLink to={`/admin/enshrinees/${e.id}/preview`} /> : null}
          </SaveBar>
          <PortraitField enshrinee={e} result={portraitResult} errors={errors} typedAlt={typed.alt} typedPick={typed.portraitPick} />
        </Form>
      </UnsavedChanges>
      {e ? (
        <>
          <h2 className="mt-8 mb-2 text-xl font-bold">Exhibits and Mentions ({e.exhibits.length})</h2>
          <p className="mb-2 text-sm">Link an exhibit from its own page.</p>
          <ul className="list-disc pl-6">
            {e.exhibits.map((x) => (
              <li key={x.id}>
                <Link to={`/admin/exhibits/${x.id}`} className="text-blue-800 underline">
                  {x.title}
                </Link>{" "}
                ({x.year})
              </li>
            ))}
          </ul>
          <DeleteRecord what={e.fullName} label="Delete this enshrinee" rule="Their links to exhibits go to the Trash with them and come back if they are restored. (An exhibit that enshrinees link to cannot be deleted until they are unlinked.)" />
        </>
      ) : null}
      {"versions" in loaderData && e ? <VersionHistory versions={loaderData.versions} base={`/admin/enshrinees/${e.id}`} /> : null}
    </section>
  );
}

export function meta() {
  return [{ title: "Enshrinee | Staff console" }];
}
