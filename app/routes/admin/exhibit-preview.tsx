/**
 * /admin/exhibits/:id/preview: the exhibit page as a visitor and as a member see it, rendered by
 * the public page's own component: GET for the saved exhibit (active or not), POST from the
 * edit form's Preview button for the values not saved yet (nothing is written).
 */
import { data, Link } from "react-router";
import type { Route } from "./+types/exhibit-preview";
import { ExhibitPage } from "~/components/ExhibitPage";
import { ConsoleHeading } from "~/components/admin/ConsoleUi";
import { exhibitSchema, formObject, uuidSchema } from "./console-schemas";
import { requireConsole } from "./guard.server";

async function preview(context: Route.LoaderArgs["context"], id: string, form: FormData | null) {
  const key = id === "new" ? null : id;
  if (key && !uuidSchema.safeParse(key).success) throw data(null, { status: 404 });
  let draft = null;
  if (form) {
    const parsed = exhibitSchema.safeParse(formObject(form, ["enshrineeIds"]));
    if (!parsed.success) return { views: null, id, problem: parsed.error.issues[0].message };
    draft = parsed.data;
  }
  const views = await context.services.admin.previewExhibit(key, draft);
  if (!views) throw data(null, { status: 404 });
  return { views, id, problem: null };
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireConsole(context, request, "collection");
  return preview(context, params.id, null);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  requireConsole(context, request, "collection");
  return preview(context, params.id, await request.formData());
}

export default function ExhibitPreview({ loaderData, actionData }: Route.ComponentProps) {
  const { views, id, problem } = actionData ?? loaderData;
  const backLink = { to: id === "new" ? "/admin/exhibits" : `/admin/exhibits/${id}`, label: "Back to editing" };
  return (
    <section>
      <ConsoleHeading>Preview{actionData ? " (not saved)" : ""}</ConsoleHeading>
      <p className="mb-4 text-sm">
        <Link to={backLink.to} className="text-blue-800 underline">
          {backLink.label}
        </Link>
        {views && !views.member.active ? " · This exhibit is inactive: it is not listed on its category page." : null}
      </p>
      {problem ? <p role="alert" className="mb-4 rounded border border-red-700 bg-red-50 px-4 py-3 text-red-900">{problem}</p> : null}
      {views ? (
        <div className="grid gap-6 xl:grid-cols-2">
          {(["visitor", "member"] as const).map((as) => (
            <div key={as} className="rounded border-2 border-dashed border-stone-400" data-testid={`preview-${as}`}>
              <h2 className="bg-stone-200 px-3 py-1 font-semibold">As a {as} sees it</h2>
              <ExhibitPage exhibit={views[as]} member={as === "member"} backLink={{ to: "#", label: "Back" }} canonical="" />
            </div>
          ))}
        </div>
      ) : null}
    </section>
  );
}

export function meta() {
  return [{ title: "Preview | Staff console" }, { name: "robots", content: "noindex" }];
}
