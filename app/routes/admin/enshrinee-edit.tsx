/**
 * /admin/enshrinees/:id (or new): an enshrinee's names and biography; their Exhibits and
 * Mentions are the exhibits linked to them (linked on each exhibit's page).
 */
import { data, Form, Link, useActionData } from "react-router";
import type { Route } from "./+types/enshrinee-edit";
import { UnsavedChanges } from "~/components/admin/UnsavedChanges";
import { PortraitField } from "~/components/admin/PortraitField";
import { RICH_TEXT_HINT, RichTextField } from "~/components/admin/RichTextField";
import { ConsoleHeading, ConsoleNotice, DangerButton, Field, inputProps, NOTICES, PreviewButton, PreviewLink, PrimaryButton } from "~/components/admin/ConsoleUi";
import { enshrineeSchema, uuidSchema } from "./console-schemas";
import { requireConsole } from "./guard.server";
import { saveOrDeleteRecord } from "./record-edit.server";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireConsole(context, request, "collection");
  const notice = NOTICES[new URL(request.url).searchParams.get("notice") ?? ""] ?? null;
  if (params.id === "new") return { enshrinee: null, notice };
  if (!uuidSchema.safeParse(params.id).success) throw data(null, { status: 404 });
  const enshrinee = await context.services.admin.collection.enshrinees.get(params.id);
  if (!enshrinee) throw data(null, { status: 404 });
  return { enshrinee, notice };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  return saveOrDeleteRecord({ context, request, id: params.id, records: context.services.admin.collection.enshrinees, schema: enshrineeSchema, listPath: "/admin/enshrinees" });
}

export default function EnshrineeEdit({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  const errors = (result && "errors" in result ? result.errors : undefined) ?? {};
  const typed = (result && "values" in result ? result.values : undefined) ?? {};
  const e = loaderData.enshrinee;
  return (
    <section className="max-w-3xl">
      <ConsoleHeading>{e ? `Enshrinee: ${e.fullName}` : "New enshrinee"}</ConsoleHeading>
      <ConsoleNotice result={result ?? (loaderData.notice ? { ok: true, message: loaderData.notice } : null)} />
      <UnsavedChanges>
        <Form method="post" className="space-y-4">
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
          <div className="flex flex-wrap items-center gap-4">
            <PrimaryButton>Save enshrinee</PrimaryButton>
            <PreviewButton to={`/admin/enshrinees/${e?.id ?? "new"}/preview`} />
            {e ? <PreviewLink to={`/admin/enshrinees/${e.id}/preview`} /> : null}
          </div>
        </Form>
      </UnsavedChanges>
      <PortraitField enshrinee={e} />
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
          <Form method="post" className="mt-8 border-t border-stone-300 pt-4">
            <DangerButton name="intent" value="delete">
              Delete this enshrinee
            </DangerButton>
          </Form>
        </>
      ) : null}
    </section>
  );
}

export function meta() {
  return [{ title: "Enshrinee | Staff console" }];
}
