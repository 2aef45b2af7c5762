/**
 * The route policy table (app/shared/route-policy.ts) against the built route table, and the
 * resolver that finds a request's route (server/http/route-policy.ts): every route has an entry
 * (a missing one stops the server, naming it), no entry names a route that is gone, and every
 * spelling of an address resolves to the route React Router or Express runs for it.
 */
import type { ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { HOST_POLICIES, PAGE_POLICIES } from "~/shared/route-policy";
import { createRouteResolver, routesWithoutPolicy } from "../../server/http/route-policy";
import { loadServerBuild } from "../helpers/test-server";

const build = await loadServerBuild();
const routes = createRouteResolver(build);

describe("the route policy table", () => {
  it("has an entry for every route of the build, and none for a route that is gone", () => {
    expect(routesWithoutPolicy(build)).toEqual([]);
    expect(Object.keys(PAGE_POLICIES).filter((id) => !(id in build.routes))).toEqual([]);
  });

  it("stops the server when a route has no entry, naming it", () => {
    const withNewRoute = { ...build, routes: { ...build.routes, "routes/new-page": { id: "routes/new-page", parentId: "root", path: "new-page", module: {} } } } as unknown as ServerBuild;
    expect(() => createRouteResolver(withNewRoute)).toThrow("Routes without a policy in app/shared/route-policy.ts: routes/new-page");
  });

  it("names each host route by a method and an Express pattern", () => {
    for (const key of Object.keys(HOST_POLICIES)) expect(key).toMatch(/^(?:GET|POST) \/(?:api|images\/(?:view|share))\/[\w/:*-]*$/);
  });
});

describe("resolving the route a request runs", () => {
  const id = (method: string, path: string) => routes.resolve(method, path).id;

  it("finds a page's route in any case, with a trailing slash, percent-encoded, as a .data call or through dot segments", () => {
    for (const path of ["/login", "/LOGIN", "/Login/", "/%6Cogin", "/%6cOGIN", "/login.data", "/LOGIN.data", "/login/.data", "/x/../login", "/./login"]) {
      expect(id("POST", path), path).toBe("routes/login");
    }
    expect(id("GET", "/")).toBe("routes/home");
    expect(id("GET", "/_root.data")).toBe("routes/home");
    expect(id("POST", "/Password/Request")).toBe("routes/password-request");
    expect(id("GET", "/SEARCH")).toBe("routes/search");
    expect(id("POST", `/Gift/Redeem/${"a".repeat(43)}`)).toBe("routes/gift-redeem");
    expect(id("GET", "/ADMIN")).toBe("routes/admin/dashboard");
    expect(id("GET", "/no/such/page/here/at/all")).toBe("routes/not-found");
  });

  it("finds the host's routes as Express does: any case, a trailing slash", () => {
    expect(id("POST", "/api/users/login")).toBe("api:POST /api/users/login");
    expect(id("POST", "/API/Users/Login/")).toBe("api:POST /api/users/login");
    expect(id("GET", "/api/teams/abc")).toBe("api:GET /api/teams/:id");
    expect(id("HEAD", "/api/search/suggest")).toBe("api:GET /api/search/suggest");
    expect(id("GET", "/Images/View/a/b.webp")).toBe("api:GET /images/view/*file");
    expect(id("GET", "/api/users/login")).toBe("api:unmatched");
    expect(id("POST", "/api/nothing")).toBe("api:unmatched");
  });

  it("gives each method its tier, body and headers", () => {
    expect(routes.resolve("POST", "/LOGIN")).toEqual({ id: "routes/login", host: false, tier: "login", body: "page form", cacheAddress: null, isolated: true, shared: false });
    expect(routes.resolve("GET", "/LOGIN").tier).toBeNull();
    expect(routes.resolve("GET", "/Search/").tier).toBe("search");
    expect(routes.resolve("POST", "/about").tier).toBe("writes");
    expect(routes.resolve("POST", "/api/stripe/webhook")).toMatchObject({ tier: null, body: "Stripe webhook", host: true });
    expect(routes.resolve("POST", "/api/nothing")).toMatchObject({ tier: "writes", body: "JSON API", host: true });
    expect(routes.resolve("POST", `/Admin/Exhibits/x/Photos/Upload.data`).body).toBe("console photo upload");
    expect(routes.resolve("POST", "/Email/Unsubscribe").body).toBe("one-click unsubscribe");
    expect(routes.resolve("GET", "/About/").cacheAddress).toBe("/about");
    expect(routes.resolve("GET", "/about").isolated).toBe(false);
    // What a cache in front may keep of a visitor's answer (decision 054): GETs of shared routes only.
    expect(routes.resolve("GET", "/about").shared).toBe(true);
    expect(routes.resolve("HEAD", "/search").shared).toBe(true);
    expect(routes.resolve("POST", "/about").shared).toBe(false);
    expect(routes.resolve("GET", "/api/teams/abc").shared).toBe(true);
    expect(routes.resolve("GET", "/login").shared).toBe(false);
    expect(routes.resolve("GET", "/admin/exhibits").shared).toBe(false);
  });
});
