/**
 * /admin/enshrinees/:id (or new): an enshrinee's names and biography; their Exhibits and
 * Mentions are the exhibits linked to them (linked on each exhibit's page).
 */
import { data, Form, Link, redirect, useActionData } from "react-router";
import type { Route } from "./+types/enshrinee-edit";
import { ConsoleHeading, ConsoleNotice, DangerButton, Field, inputProps, NOTICES, PrimaryButton } from "~/components/admin/ConsoleUi";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { enshrineeSchema, fieldErrors, formObject, uuidSchema } from "./console-schemas";
import { actorOf, consoleAnswer, formText, requireConsole, typedValues, type ConsoleResult } from "./guard.server";

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
  const staff = requireConsole(context, request, "collection");
  const limited = rateLimitedAnswer<ConsoleResult>(context, (message) => ({ ok: false, message }));
  if (limited) return limited;
  const form = await request.formData();
  const id = params.id === "new" ? null : params.id;
  if (id && !uuidSchema.safeParse(id).success) throw data(null, { status: 404 });
  const enshrinees = context.services.admin.collection.enshrinees;
  if (formText(form, "intent") === "delete" && id) {
    const done = await enshrinees.remove(actorOf(staff), id);
    return done.ok ? redirect("/admin/enshrinees?notice=deleted") : consoleAnswer(done, 409);
  }
  const parsed = enshrineeSchema.safeParse(formObject(form));
  if (!parsed.success) return consoleAnswer({ ok: false, message: "Please correct the marked fields.", errors: fieldErrors(parsed.error), values: typedValues(form) });
  const saved = await enshrinees.save(actorOf(staff), id, parsed.data);
  return saved.ok ? redirect(`/admin/enshrinees/${saved.id}?notice=saved`) : consoleAnswer(saved);
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
        <Field label="Biography (members only)" name="biography" error={errors.biography}>
          <textarea {...inputProps("biography", errors.biography)} defaultValue={typed.biography ?? e?.biography} rows={10} />
        </Field>
        <PrimaryButton>Save enshrinee</PrimaryButton>
      </Form>
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
