/**
 * Every page and data call of the staff console, with the area that decides who may use it and
 * a harmless form post for its action. The role walk (admin-access.test.ts) proves each one for
 * visitors, members, curators and admins, and fails when a console route is missing here.
 */
import type { ConsoleArea } from "~/shared/console-areas";

export interface ConsoleRoute {
  /** Route id in the build (routes/admin/...). */
  id: string;
  /** An address of the route; `{exhibit}`, `{team}`, `{category}`, `{enshrinee}`, `{member}`, `{message}` stand for existing records' ids, `{teamVersion}` etc. for each record's first version. */
  path: string;
  area: ConsoleArea;
  /** A post its action answers without changing anything (null: no action). */
  post: Record<string, string> | null;
  /** The action's answer for someone allowed (the guard passed). */
  allowedPostStatus?: number;
  /** The page's answer for someone allowed (200 unless said). */
  allowedGetStatus?: number;
  /** A resource route (a file, not a page): no console around it and no data call. */
  resource?: boolean;
}

export const CONSOLE_ROUTES: ConsoleRoute[] = [
  { id: "routes/admin/layout", path: "/admin", area: "dashboard", post: null },
  { id: "routes/admin/dashboard", path: "/admin", area: "dashboard", post: null },
  // The Overview's figures as CSV (decision 060): money rows for admins only, the rest for every staff member.
  { id: "routes/admin/overview-export", path: "/admin/overview/export?period=7", area: "dashboard", post: null, resource: true },
  { id: "routes/admin/confirm-password", path: "/admin/confirm-password", area: "dashboard", post: { password: "wrong-password" }, allowedPostStatus: 400 },
  // "Stay signed in" (SessionClock.tsx): its post is the activity; opened as a page it goes back to /admin.
  { id: "routes/admin/stay-signed-in", path: "/admin/stay-signed-in", area: "dashboard", post: {}, allowedGetStatus: 302 },
  // One's own sign-in and sessions: an unknown form is refused with 400.
  { id: "routes/admin/security", path: "/admin/security", area: "dashboard", post: { intent: "nothing" }, allowedPostStatus: 400 },
  { id: "routes/admin/staff", path: "/admin/staff", area: "staff", post: { intent: "nothing" }, allowedPostStatus: 400 },
  { id: "routes/admin/audit", path: "/admin/audit", area: "audit", post: null },
  { id: "routes/admin/teams", path: "/admin/teams", area: "collection", post: null },
  { id: "routes/admin/team-edit", path: "/admin/teams/new", area: "collection", post: { name: "" }, allowedPostStatus: 400 },
  { id: "routes/admin/categories", path: "/admin/categories", area: "collection", post: null },
  { id: "routes/admin/category-edit", path: "/admin/categories/new", area: "collection", post: { categoryName: "" }, allowedPostStatus: 400 },
  // Bulk actions: no row chosen is refused with 400.
  { id: "routes/admin/exhibits", path: "/admin/exhibits", area: "collection", post: { action: "add-to-favorites" }, allowedPostStatus: 400 },
  { id: "routes/admin/exhibit-edit", path: "/admin/exhibits/new", area: "collection", post: { title: "" }, allowedPostStatus: 400 },
  { id: "routes/admin/enshrinees", path: "/admin/enshrinees", area: "collection", post: { action: "none" }, allowedPostStatus: 400 },
  { id: "routes/admin/enshrinee-edit", path: "/admin/enshrinees/new", area: "collection", post: { fullName: "" }, allowedPostStatus: 400 },
  { id: "routes/admin/exhibit-photos", path: "/admin/exhibits/{exhibit}/photos", area: "collection", post: { remove: "exhibits/none.jpg" }, allowedPostStatus: 400 },
  // Action only (a document that redirects to the photos page); multipart, so its post is checked in admin-photos.test.ts.
  { id: "routes/admin/exhibit-photos-upload", path: "/admin/exhibits/{exhibit}/photos/upload", area: "collection", post: null, allowedGetStatus: 302 },
  // One preview module under each edit page (decision 015); an empty form is refused with 400.
  { id: "routes/admin/exhibit-preview", path: "/admin/exhibits/{exhibit}/preview", area: "collection", post: { title: "" }, allowedPostStatus: 400 },
  { id: "routes/admin/team-preview", path: "/admin/teams/{team}/preview", area: "collection", post: { name: "" }, allowedPostStatus: 400 },
  { id: "routes/admin/category-preview", path: "/admin/categories/{category}/preview", area: "collection", post: { categoryName: "" }, allowedPostStatus: 400 },
  { id: "routes/admin/enshrinee-preview", path: "/admin/enshrinees/{enshrinee}/preview", area: "collection", post: { fullName: "" }, allowedPostStatus: 400 },
  // One version page under each edit page (decision 030); a post without intent=restore is refused with 400.
  { id: "routes/admin/team-version", path: "/admin/teams/{team}/versions/{teamVersion}", area: "collection", post: { intent: "nothing" }, allowedPostStatus: 400 },
  { id: "routes/admin/category-version", path: "/admin/categories/{category}/versions/{categoryVersion}", area: "collection", post: { intent: "nothing" }, allowedPostStatus: 400 },
  { id: "routes/admin/exhibit-version", path: "/admin/exhibits/{exhibit}/versions/{exhibitVersion}", area: "collection", post: { intent: "nothing" }, allowedPostStatus: 400 },
  { id: "routes/admin/enshrinee-version", path: "/admin/enshrinees/{enshrinee}/versions/{enshrineeVersion}", area: "collection", post: { intent: "nothing" }, allowedPostStatus: 400 },
  { id: "routes/admin/banner-preview", path: "/admin/banner/preview", area: "banner", post: { variant: "desktop" }, allowedPostStatus: 400 },
  { id: "routes/admin/banner-version", path: "/admin/banner/mobile/versions/{bannerVersion}", area: "banner", post: { intent: "nothing" }, allowedPostStatus: 400 },
  // The collection's CSV (decision 034): multipart imports, checked in collection-import.test.ts.
  { id: "routes/admin/exhibit-import", path: "/admin/exhibits/import", area: "collection", post: null },
  { id: "routes/admin/enshrinee-import", path: "/admin/enshrinees/import", area: "collection", post: null },
  { id: "routes/admin/exhibit-export", path: "/admin/exhibits/export", area: "collection", post: null, resource: true },
  { id: "routes/admin/enshrinee-export", path: "/admin/enshrinees/export", area: "collection", post: null, resource: true },
  { id: "routes/admin/members", path: "/admin/members", area: "members", post: null },
  { id: "routes/admin/members-export", path: "/admin/members/export", area: "members", post: null, resource: true },
  { id: "routes/admin/member", path: "/admin/members/{member}", area: "members", post: { intent: "nothing" }, allowedPostStatus: 400 },
  { id: "routes/admin/payments", path: "/admin/payments", area: "members", post: null },
  { id: "routes/admin/payments-export", path: "/admin/payments/export", area: "members", post: null, resource: true },
  { id: "routes/admin/gifts", path: "/admin/gifts", area: "gifts", post: { intent: "nothing" }, allowedPostStatus: 400 },
  { id: "routes/admin/messages", path: "/admin/messages", area: "inbox", post: null },
  { id: "routes/admin/message", path: "/admin/messages/{message}", area: "inbox", post: { intent: "nothing" }, allowedPostStatus: 400 },
  { id: "routes/admin/subscribers", path: "/admin/subscribers", area: "subscribers", post: { intent: "nothing" }, allowedPostStatus: 400 },
  { id: "routes/admin/subscribers-export", path: "/admin/subscribers/export", area: "subscribers", post: null, resource: true },
  { id: "routes/admin/banner", path: "/admin/banner", area: "banner", post: { intent: "nothing" }, allowedPostStatus: 400 },
  { id: "routes/admin/media", path: "/admin/media", area: "collection", post: { intent: "nothing" }, allowedPostStatus: 400 },
  { id: "routes/admin/trash", path: "/admin/trash", area: "collection", post: { intent: "nothing" }, allowedPostStatus: 400 },
];
