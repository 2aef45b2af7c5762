/** The route table of spec section 2, one line per route. */
import { index, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("teams/:id", "routes/team.tsx"),
  route("teams/:teamId/:categoryId", "routes/category.tsx"),
  route("teams/:teamId/:title/:exhibitId", "routes/exhibit.tsx"),
  route("enshrinees", "routes/enshrinees.tsx"),
  route("enshrinees/:fullName/:enshrineeID", "routes/enshrinee.tsx"),
  route(":fullName/:enshrineeID/exhibit/:id", "routes/enshrinee-exhibit.tsx"),
  route("favoritestories", "routes/favorite-stories.tsx"),
  route("favoritestories/exhibit/:id", "routes/favorite-story-exhibit.tsx"),
  route("about", "routes/about.tsx"),
  route("contact", "routes/contact.tsx"),
  route("subscribe", "routes/subscribe.tsx"),
  route("termsandconditions", "routes/terms.tsx"),
  route("privacypolicy", "routes/privacy.tsx"),
  route("admission", "routes/admission.tsx"),
  route("admission/payment", "routes/payment.tsx"),
  route("login", "routes/login.tsx"),
  route("logout", "routes/logout.tsx"),
  route("password/request", "routes/password-request.tsx"),
  route("password/reset", "routes/password-reset.tsx"),
  route("sitemap.xml", "routes/sitemap.tsx"),
  route("robots.txt", "routes/robots.tsx"),
  route("__error-probe", "routes/error-probe.tsx"),
  // The staff console (decision 015): every page checks the role in its loader and action.
  route("admin", "routes/admin/layout.tsx", [
    index("routes/admin/dashboard.tsx"),
    route("confirm-password", "routes/admin/confirm-password.tsx"),
    route("staff", "routes/admin/staff.tsx"),
    route("audit", "routes/admin/audit.tsx"),
  ]),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
