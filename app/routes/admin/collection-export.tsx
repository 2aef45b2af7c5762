/**
 * GET /admin/exhibits/export and /admin/enshrinees/export: the whole collection's exhibits or
 * enshrinees as CSV, streamed in batches, in the columns the import takes (decision 034): teams,
 * categories and enshrinees by name, cells neutralized against spreadsheet formulas.
 */
import type { Route } from "./+types/collection-export";
import { museumClock, requireConsole } from "./guard.server";
import { collectionKindOf } from "./collection-csv.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireConsole(context, request, "collection");
  const kind = collectionKindOf(request);
  const { collectionCsv, exports } = context.services.admin;
  return exports.csv(`${kind}-${museumClock(context).day(new Date())}.csv`, collectionCsv.columns(kind), collectionCsv.batches(kind), (cells) => cells);
}
