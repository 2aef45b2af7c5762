/** The route guards: what each lets through, and the redirect or status it throws otherwise. */
import type { AppLoadContext } from "react-router";
import { describe, expect, it } from "vitest";
import { rateLimitedAnswer, redirectMembers, requireAccount, requireStaff } from "~/lib/guards.server";

type SignedIn = NonNullable<AppLoadContext["viewer"]>;
const person = (over: Partial<SignedIn> = {}): SignedIn => ({
  userId: "u1",
  firstName: "Ada",
  lastName: "L",
  emailAddress: "ada@example.com",
  validThrough: "2099-01-01",
  member: true,
  role: "member",
  ...over,
});
const ctx = (viewer: SignedIn | null, rateLimited: string | null = null) => ({ viewer, rateLimited }) as unknown as AppLoadContext;

/** What a guard threw: a redirect's target, or a status. */
function thrown(fn: () => unknown): { location?: string | null; status?: number } {
  try {
    fn();
  } catch (e) {
    if (e instanceof Response) return { location: e.headers.get("location"), status: e.status };
    const d = e as { init?: { status?: number } };
    return { status: d.init?.status };
  }
  return {};
}

describe("guards", () => {
  const request = new Request("http://museum.test/admin/exhibits?page=2");

  it("requireStaff sends the signed-out to /login and back, and answers 404 to anyone not staff", () => {
    expect(thrown(() => requireStaff(ctx(null), request)).location).toBe("/login?redirectTo=%2Fadmin%2Fexhibits%3Fpage%3D2");
    expect(thrown(() => requireStaff(ctx(person()), request)).status).toBe(404);
    expect(thrown(() => requireStaff(ctx(person({ member: false })), request)).status).toBe(404);
    expect(requireStaff(ctx(person({ role: "admin" })), request).firstName).toBe("Ada");
  });

  it("requireAccount sends a signed-out person to the login page", () => {
    expect(thrown(() => requireAccount(ctx(null))).location).toBe("/login");
    expect(requireAccount(ctx(person({ member: false }))).userId).toBe("u1");
  });

  it("redirectMembers sends only members on", () => {
    expect(thrown(() => redirectMembers(ctx(person()))).location).toBe("/");
    expect(thrown(() => redirectMembers(ctx(person({ member: false }))))).toEqual({});
  });

  it("rateLimitedAnswer shapes the host's message as the page's result, with 429", () => {
    expect(rateLimitedAnswer(ctx(null), (message) => ({ ok: false, message }))).toBeNull();
    const answer = rateLimitedAnswer(ctx(null, "Too many"), (message) => ({ ok: false, message }));
    expect(answer?.init?.status).toBe(429);
    expect(answer?.data).toEqual({ ok: false, message: "Too many" });
  });
});
