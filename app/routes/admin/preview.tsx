/**
 * The console's preview of a public page as a visitor and as a member see it (decision
 * 015), one module for every kind, registered under each edit page's address:
 * /admin/exhibits/:id/preview, /admin/teams/:id/preview, /admin/categories/:id/preview,
 * /admin/enshrinees/:id/preview and /admin/banner/preview. GET shows the saved record (active or
 * not); POST, from the edit form's "Preview without saving" button, shows the form's values laid
 * over it, and writes nothing. Each tier is rendered by the public page's own component.
 */
import { data, Link } from "react-router";
import type { Route } from "./+types/preview";
import { BannerCarousel } from "~/components/BannerCarousel";
import { CategoryPage } from "~/components/CategoryPage";
import { EnshrineePage } from "~/components/EnshrineePage";
import { ExhibitPage } from "~/components/ExhibitPage";
import { HomePage } from "~/components/HomePage";
import { TeamPage } from "~/components/TeamPage";
import { ConsoleHeading } from "~/components/admin/ConsoleUi";
import { withImageSize } from "./image-size.server";
import { bannerSlideSchema, categorySchema, enshrineeSchema, exhibitSchema, formObject, teamSchema, uuidSchema } from "./console-schemas";
import { formText, requireConsole } from "./guard.server";

const KINDS = { exhibits: "exhibit", teams: "team", categories: "category", enshrinees: "enshrinee", banner: "banner" } as const;
type Kind = (typeof KINDS)[keyof typeof KINDS];

/** The kind of page from the address: /admin/<kind>/.../preview (in any case, as the route matched it). */
function kindOf(request: Request): Kind {
  const segment = new URL(request.url).pathname.split("/")[2]?.toLowerCase() as keyof typeof KINDS;
  const kind = KINDS[segment];
  if (!kind) throw data(null, { status: 404 });
  return kind;
}

/** A record that does not exist (or nothing to show for a record not made yet): 404. */
function found<T>(tiers: T | null): T {
  if (!tiers) throw data(null, { status: 404 });
  return tiers;
}

const problem = (message: string) => data({ kind: null, views: null, id: null, teamId: null, firstName: null, unsaved: true, problem: message } as const, { status: 400 });

async function preview({ request, context, params }: Route.LoaderArgs, form: FormData | null) {
  const kind = kindOf(request);
  const staff = requireConsole(context, request, kind === "banner" ? "banner" : "collection");
  const id = params.id === undefined || params.id === "new" ? null : params.id;
  if (id && !uuidSchema.safeParse(id).success) throw data(null, { status: 404 });
  const p = context.services.admin.preview;
  const teamParam = new URL(request.url).searchParams.get("team") ?? (form ? formText(form, "previewTeam") : "");
  const teamId = uuidSchema.safeParse(teamParam).success ? teamParam : null;
  const draftOf = <T,>(parsed: { success: true; data: T } | { success: false; error: { issues: { message: string }[] } }) => parsed;
  let views;
  if (kind === "exhibit") {
    const parsed = form ? draftOf(exhibitSchema.safeParse(formObject(form, ["enshrineeIds"]))) : null;
    if (parsed && !parsed.success) return problem(parsed.error.issues[0].message);
    views = { kind, tiers: found(await p.exhibit(id, parsed?.data ?? null)) } as const;
  } else if (kind === "team") {
    const parsed = form ? draftOf(teamSchema.safeParse(formObject(form))) : null;
    if (parsed && !parsed.success) return problem(parsed.error.issues[0].message);
    views = { kind, tiers: found(await p.team(id, parsed?.data ?? null)) } as const;
  } else if (kind === "category") {
    const parsed = form ? draftOf(categorySchema.safeParse(formObject(form))) : null;
    if (parsed && !parsed.success) return problem(parsed.error.issues[0].message);
    views = { kind, tiers: found(await p.category(id, parsed?.data ?? null, teamId)) } as const;
  } else if (kind === "enshrinee") {
    const parsed = form ? draftOf(enshrineeSchema.safeParse(formObject(form))) : null;
    if (parsed && !parsed.success) return problem(parsed.error.issues[0].message);
    views = { kind, tiers: found(await p.enshrinee(id, parsed?.data ?? null)) } as const;
  } else {
    const missing = form ? await withImageSize(context, form) : null;
    if (missing) return problem(missing);
    const parsed = form ? draftOf(bannerSlideSchema.safeParse(formObject(form))) : null;
    if (parsed && !parsed.success) return problem(parsed.error.issues[0].message);
    const position = form && formText(form, "intent") === "update" ? Number(formText(form, "position")) : NaN;
    views = { kind, tiers: await p.banner(parsed ? { ...parsed.data, position: Number.isInteger(position) ? position : null } : null) } as const;
  }
  return { kind, views, id, teamId, firstName: staff.firstName, unsaved: form !== null, problem: null };
}

export function loader(args: Route.LoaderArgs) {
  // A record not made yet has nothing saved to show: its preview comes from the form (the action).
  if (args.params.id === "new") {
    requireConsole(args.context, args.request, kindOf(args.request) === "banner" ? "banner" : "collection");
    return { kind: null, views: null, id: null, teamId: null, firstName: null, unsaved: false, problem: "Nothing is saved yet: fill in the form and press Preview without saving." } as const;
  }
  return preview(args, null);
}

export async function action(args: Route.ActionArgs) {
  return preview(args, await args.request.formData());
}

const EDIT_PAGES: Record<Kind, string> = { exhibit: "/admin/exhibits", team: "/admin/teams", category: "/admin/categories", enshrinee: "/admin/enshrinees", banner: "/admin/banner" };

type Data = Exclude<Route.ComponentProps["loaderData"], { kind: null }>;

/** One tier's page, drawn by the public page's own component. */
function TierPage({ views, as, firstName }: { views: Data["views"]; as: "visitor" | "member"; firstName: string }) {
  const member = as === "member";
  switch (views.kind) {
    case "exhibit":
      return <ExhibitPage exhibit={views.tiers[as]} member={member} backLink={{ to: "#", label: "Back" }} canonical="" />;
    case "team":
      return <TeamPage {...views.tiers[as]} />;
    case "category":
      return <CategoryPage {...views.tiers[as]} member={member} />;
    case "enshrinee":
      return <EnshrineePage enshrinee={views.tiers[as]} />;
    case "banner":
      return <HomePage {...views.tiers[as]} member={member} firstName={member ? firstName : null} />;
  }
}

export default function Preview({ loaderData, actionData }: Route.ComponentProps) {
  const shown = actionData ?? loaderData;
  if (shown.kind === null) {
    return (
      <section>
        <ConsoleHeading>Preview</ConsoleHeading>
        <p role="alert" className="mb-4 rounded border border-red-700 bg-red-50 px-4 py-3 text-red-900">
          {shown.problem}
        </p>
      </section>
    );
  }
  const { kind, views, id, firstName, unsaved } = shown;
  const back = kind === "banner" ? EDIT_PAGES.banner : `${EDIT_PAGES[kind]}/${id ?? "new"}`;
  const inactive = views.kind === "exhibit" && !views.tiers.member.active;
  return (
    <section>
      <ConsoleHeading>Preview{unsaved ? " (not saved)" : ""}</ConsoleHeading>
      <p className="mb-4 text-sm">
        <Link to={back} className="text-blue-800 underline">
          Back to editing
        </Link>
        {inactive ? " · This exhibit is inactive: it is not listed on its category page." : null}
      </p>
      {views.kind === "category" && views.tiers.member.teams.length > 1 ? (
        <p className="mb-4 text-sm">
          Under another team:{" "}
          {views.tiers.member.teams.map((t) => (
            <Link key={t._id} to={`?team=${t._id}`} className="mr-3 text-blue-800 underline">
              {t.name}
            </Link>
          ))}
        </p>
      ) : null}
      <div className="grid gap-6 xl:grid-cols-2">
        {(["visitor", "member"] as const).map((as) => (
          <div key={as} className="rounded border-2 border-dashed border-stone-400" data-testid={`preview-${as}`}>
            <h2 className="bg-stone-200 px-3 py-1 font-semibold">As a {as} sees it</h2>
            <TierPage views={views} as={as} firstName={firstName} />
          </div>
        ))}
      </div>
      {views.kind === "banner" ? (
        // The home page shows one set by screen width; here both, whatever this screen's width.
        <div className="mt-8 grid gap-6 md:grid-cols-2">
          {(["desktop", "mobile"] as const).map((variant) => (
            <div key={variant} data-testid={`preview-${variant}-slides`}>
              <h2 className="mb-2 font-semibold capitalize">{variant} slides</h2>
              <BannerCarousel slides={views.tiers.visitor.banners[variant]} label={`Featured (${variant} preview)`} className="" />
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
