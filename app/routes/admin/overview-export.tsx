/**
 * GET /admin/overview/export?period=: the Overview's figures for the period as CSV (decision
 * 060), the same figures the page shows to the same person (money and members for admins only).
 */
import type { Route } from "./+types/overview-export";
import { mayOpen } from "~/shared/console-areas";
import { OVERVIEW_CSV_HEADER, overviewCsvRows, parsePeriod } from "~/shared/overview";
import { requireConsole } from "./guard.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = requireConsole(context, request, "dashboard");
  const period = parsePeriod(new URL(request.url).searchParams.get("period"));
  const { overview, exports } = context.services.admin;
  const figures = await overview.figures(period, { money: mayOpen(staff.role, "members") });
  async function* oneBatch() {
    yield overviewCsvRows(figures);
  }
  return exports.csv(`overview-${figures.from}-to-${figures.to}.csv`, OVERVIEW_CSV_HEADER, oneBatch(), (row) => row);
}
