import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../server/config";

describe("loadConfig", () => {
  it("runs the embedded site with no variables at all", () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.TICKET_PRICE_CENTS).toBe(699);
    expect(c.TICKET_DAYS).toBe(120);
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.PUBLIC_URL).toBe("http://localhost:3000");
  });

  it.each([
    ["PORT", "abc"],
    ["TICKET_DAYS", "-3"],
    ["DATABASE_URL", "mysql://x"],
    ["PUBLIC_URL", "not a url"],
    ["MUSEUM_TIME_ZONE", "Mars/Olympus"],
    ["SEED_DEMO", "maybe"],
  ])("names %s when its value %s is wrong", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}:`));
  });

  it("requires a shared SESSION_SECRET for production on PostgreSQL", () => {
    expect(() =>
      loadConfig({ NODE_ENV: "production", DATABASE_URL: "postgres://db/museum" }),
    ).toThrow(/SESSION_SECRET/);
    expect(() => loadConfig({ NODE_ENV: "production" })).not.toThrow();
  });

  it("requires both Stripe keys or neither", () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: "sk_test_x" })).toThrow(/STRIPE_PUBLISHABLE_KEY/);
  });
});
