/**
 * /admin/stay-signed-in: "Stay signed in" of the session clock (SessionClock.tsx). The request
 * itself is the activity: the host's session check records it (server/accounts/sessions.ts).
 */
import { redirect } from "react-router";
import type { Route } from "./+types/stay-signed-in";
import { requireConsole } from "./guard.server";

export async function action({ request, context }: Route.ActionArgs) {
  requireConsole(context, request, "dashboard");
  return { ok: true };
}

/** Opened as a page (the button without JavaScript posts here too): back to the console. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireConsole(context, request, "dashboard");
  return redirect("/admin");
}
