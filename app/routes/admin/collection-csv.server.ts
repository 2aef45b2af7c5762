/**
 * The console's collection CSV (decision 034): which records an export or import address is
 * about (`/admin/exhibits/...` or `/admin/enshrinees/...`, one module per job for both), and the
 * bulk actions' form post shared by the two lists.
 */
import type { AppLoadContext } from "react-router";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { actorOf, consoleAnswer, formText, requireConsole, type ConsoleResult } from "./guard.server";

export type CollectionKind = "exhibits" | "enshrinees";

export function collectionKindOf(request: Request): CollectionKind {
  return new URL(request.url).pathname.startsWith("/admin/enshrinees") ? "enshrinees" : "exhibits";
}

/** A list's bulk form: the chosen rows (`ids`), the action, and its choice (`category`). */
export async function bulkAction(context: AppLoadContext, request: Request, entity: "exhibit" | "enshrinee") {
  const staff = requireConsole(context, request, "collection");
  const limited = rateLimitedAnswer<ConsoleResult>(context, (message) => ({ ok: false, message }));
  if (limited) return limited;
  const form = await request.formData();
  const ids = form.getAll("ids").filter((v): v is string => typeof v === "string");
  const done = await context.services.admin.bulk.apply(actorOf(staff), entity, formText(form, "action"), ids, formText(form, "category"));
  return consoleAnswer(done);
}
