/**
 * The console's collection CSV (decision 034): which records an export or import address is
 * about (`/admin/exhibits/...` or `/admin/enshrinees/...`, one module per job for both), and the
 * bulk actions' form post shared by the two lists.
 */
import type { AppLoadContext } from "react-router";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { data } from "react-router";
import type { BulkAnswer } from "~/components/admin/BulkActions";
import { actorOf, formText, requireConsole, type ConsoleResult } from "./guard.server";

export type CollectionKind = "exhibits" | "enshrinees";

export function collectionKindOf(request: Request): CollectionKind {
  return new URL(request.url).pathname.startsWith("/admin/enshrinees") ? "enshrinees" : "exhibits";
}

/**
 * A list's bulk form: the chosen rows (`ids`) or, with `scope=matching`, every record the list's
 * search and filters match (`matching`, the same query as its loader, up to BULK_MAX_ROWS), the
 * action and its choice (`category`); an action that asks first (moving to the trash) answers
 * the question, naming the rows, until `confirm=yes`. `intent=undo` undoes an Apply (`batch`).
 */
export async function bulkAction(context: AppLoadContext, request: Request, entity: "exhibit" | "enshrinee", matching: (url: URL, limit: number) => Promise<{ ids: string[]; total: number }>) {
  const staff = requireConsole(context, request, "collection");
  const limited = rateLimitedAnswer<ConsoleResult>(context, (message) => ({ ok: false, message }));
  if (limited) return limited;
  const form = await request.formData();
  const bulk = context.services.admin.bulk;
  const answer = (result: BulkAnswer) => data(result, { status: result.ok ? 200 : 400 });
  if (formText(form, "intent") === "undo") return answer(await bulk.undo(actorOf(staff), formText(form, "batch")));
  let ids = form.getAll("ids").filter((v): v is string => typeof v === "string");
  if (formText(form, "scope") === "matching") {
    const found = await matching(new URL(request.url), bulk.maxRows + 1);
    if (found.total > bulk.maxRows) return answer({ ok: false, message: `Please narrow the search: ${found.total} rows match, and one action takes at most ${bulk.maxRows}.` });
    ids = found.ids;
  }
  const action = formText(form, "action");
  if (formText(form, "confirm") !== "yes") {
    const items = await bulk.confirmation(entity, action, ids);
    if (items?.length) return answer({ ok: true, message: "", confirm: { action, label: bulk.actionsFor(entity).find((a) => a.id === action)?.label ?? action, items } });
  }
  return answer(await bulk.apply(actorOf(staff), entity, action, ids, formText(form, "category")));
}
