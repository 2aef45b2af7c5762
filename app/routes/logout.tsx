/** POST /logout: ends the session, then /login shows the logout alert (spec section 4). */
import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { flashCookie } from "~/lib/flash.server";

export async function action({ request, context }: Route.ActionArgs) {
  const headers = new Headers();
  headers.append("Set-Cookie", await context.services.sessionCookies.end({ cookie: request.headers.get("cookie") }));
  headers.append("Set-Cookie", flashCookie("logout", context.settings.publicUrl));
  return redirect("/login", { headers });
}

export async function loader() {
  return redirect("/");
}
