/**
 * One saved version of a team, category, exhibit or enshrinee (decision 030), or of the home
 * banner's desktop or mobile slides (/admin/banner/<variant>/versions/:versionId), one module
 * registered under each edit page: /admin/<kind>/:id/versions/:versionId. GET shows the version's
 * fields read-only, those it changed marked; POST (intent=restore) saves it as the record's newest
 * version, audited "Restored the version of <date> by <who>", and returns to the edit page.
 */
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/record-version";
import { ConsoleHeading, ConsoleNotice, PrimaryButton } from "~/components/admin/ConsoleUi";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { changedText, ORIGINAL_VERSION } from "~/shared/record-versions";
import { WordDifference } from "~/components/admin/WordDifference";
import { uuidSchema } from "./console-schemas";
import { actorOf, consoleAnswer, formText, requireConsole, type ConsoleResult } from "./guard.server";

const KINDS = { teams: "team", categories: "category", exhibits: "exhibit", enshrinees: "enshrinee", banner: "banner" } as const;
const NAMES = { team: "Team", category: "Category", exhibit: "Exhibit", enshrinee: "Enshrinee", banner: "Home banner" } as const;

/** The kind and record from the address, /admin/<kind>/<id>/versions/<version>: 404 for anything else. */
function target(request: Request, params: Route.LoaderArgs["params"]) {
  const segment = new URL(request.url).pathname.split("/")[2]?.toLowerCase() as keyof typeof KINDS;
  const kind = KINDS[segment];
  const versionOk = params.versionId === ORIGINAL_VERSION || uuidSchema.safeParse(params.versionId).success;
  // The banner's records are its variants; the edit page is the banner page for both.
  const idOk = kind === "banner" ? params.id === "desktop" || params.id === "mobile" : uuidSchema.safeParse(params.id).success;
  if (!kind || !idOk || !versionOk) throw data(null, { status: 404 });
  const edit = kind === "banner" ? "/admin/banner" : `/admin/${segment}/${params.id}`;
  return { kind, segment, id: params.id, versionId: params.versionId, edit, area: kind === "banner" ? ("banner" as const) : ("collection" as const) };
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const t = target(request, params);
  requireConsole(context, request, t.area);
  const version = await context.services.admin.versions.get(t.kind, t.id, t.versionId);
  if (!version) throw data(null, { status: 404 });
  return { version, name: NAMES[t.kind], edit: t.edit, exhibit: t.kind === "exhibit", banner: t.kind === "banner" };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const t = target(request, params);
  const staff = requireConsole(context, request, t.area);
  const limited = rateLimitedAnswer<ConsoleResult>(context, (message) => ({ ok: false, message }));
  if (limited) return limited;
  const form = await request.formData();
  if (formText(form, "intent") !== "restore") return consoleAnswer({ ok: false, message: "Nothing to do: press Restore this version to restore it." });
  const restored = await context.services.admin.versions.restore(actorOf(staff), t.kind, t.id, t.versionId);
  if (!restored.ok) return consoleAnswer(restored, restored.message === "That version does not exist." ? 404 : 409);
  return redirect(`${t.edit}?notice=restored`);
}

export default function RecordVersion({ loaderData, actionData }: Route.ComponentProps) {
  const { version: v, name, edit, exhibit, banner } = loaderData;
  return (
    <section className="max-w-3xl">
      <ConsoleHeading>{`${name}: ${v.title}`}</ConsoleHeading>
      <ConsoleNotice result={actionData} />
      <p className="mb-2">
        Version of <strong>{v.when}</strong> {v.by ? `by ${v.by}` : "(before any change in the console)"}
        {v.current ? " · the current version" : ""}
      </p>
      <p className="mb-4 text-sm text-stone-700">
        {`Changed: ${changedText(v)}${v.note ? ` · ${v.note}` : ""}`}
      </p>
      <p className="mb-4 text-sm">
        <Link to={edit} className="text-blue-800 underline">
          Back to editing
        </Link>
      </p>
      {banner ? <p className="mb-4 text-sm">A restore puts back these slides in this order, each with its image, description, size and status, as a new version of the banner.</p> : null}
      {exhibit ? <p className="mb-4 text-sm">A restore brings back the exhibit's fields and linked enshrinees. Its photos, thumbnail and matching photo stay as they are now: they are arranged on the Photos page.</p> : null}
      <dl className="divide-y divide-stone-200 border-y border-stone-200" data-testid="version-fields">
        {v.fields.map((f) => (
          <div key={f.label} className="grid gap-1 py-2 sm:grid-cols-[14rem_1fr]">
            <dt className="font-semibold">
              {f.label}
              {f.changed ? <span className="ml-2 rounded bg-amber-100 px-1 text-xs font-semibold uppercase text-amber-900">changed</span> : null}
              {f.kept ? <span className="ml-2 text-xs font-normal text-stone-700">(not restored)</span> : null}
            </dt>
            <dd className="whitespace-pre-wrap break-words">
              {f.value}
              {f.difference && f.difference.some((c) => c.change !== "same") ? (
                <WordDifference
                  changes={f.difference}
                  heading="Difference from the current text"
                  legend={
                    <>
                      <ins className="bg-green-100 text-green-900">Underlined</ins>: only in the current text. <del className="bg-red-100 text-red-900">Struck through</del>: only in this version.
                    </>
                  }
                />
              ) : null}
            </dd>
          </div>
        ))}
      </dl>
      {v.current ? (
        <p className="mt-4">This is the current version.</p>
      ) : (
        <Form method="post" className="mt-4">
          <PrimaryButton name="intent" value="restore">
            Restore this version
          </PrimaryButton>
        </Form>
      )}
    </section>
  );
}

export function meta({ data: d }: Route.MetaArgs) {
  return [{ title: `${d ? `${d.name} version` : "Version"} | Staff console` }];
}
