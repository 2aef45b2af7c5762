/** POST /logout: ends the session, then /login shows the logout alert (spec section 4). */
import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { flashCookie } from "~/lib/flash.server";
import { clearedSessionCookie, sessionTokenFrom } from "../../server/accounts/session-cookie.server";

export async function action({ request, context }: Route.ActionArgs) {
  const token = sessionTokenFrom(request.headers.get("cookie"));
  if (token) await context.services.sessions.destroy(token);
  const secure = context.settings.publicUrl.startsWith("https://");
  const headers = new Headers();
  headers.append("Set-Cookie", clearedSessionCookie(secure));
  headers.append("Set-Cookie", flashCookie("logout"));
  return redirect("/login", { headers });
}

export async function loader() {
  return redirect("/");
}
