/** GET /account/data: 'Download my data', one JSON file, never cached. */
import type { Route } from "./+types/account-data";
import { requireAccount } from "~/lib/guards.server";

export async function loader({ context }: Route.LoaderArgs) {
  const viewer = requireAccount(context, "/login?redirectTo=%2Faccount");
  const data = await context.services.accountLifecycle.exportData(viewer.userId);
  if (!data) return new Response(null, { status: 404 });
  return new Response(`${JSON.stringify(data, null, 2)}\n`, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": 'attachment; filename="museum-account-data.json"',
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
