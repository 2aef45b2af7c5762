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

  it("takes a METRICS_TOKEN of 16 characters or more, and none by default", () => {
    expect(loadConfig({}).METRICS_TOKEN).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: "0123456789abcdef" }).METRICS_TOKEN).toBe("0123456789abcdef");
    expect(() => loadConfig({ METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN: must be at least 16 characters/);
  });

  it("waits DB_RETRY_SECONDS (0 to 30, 8 by default) for the database to come back", () => {
    expect(loadConfig({}).DB_RETRY_SECONDS).toBe(8);
    expect(loadConfig({ DB_RETRY_SECONDS: "0" }).DB_RETRY_SECONDS).toBe(0);
    expect(loadConfig({ DB_RETRY_SECONDS: "30" }).DB_RETRY_SECONDS).toBe(30);
    for (const wrong of ["-1", "31", "2.5", "soon"]) expect(() => loadConfig({ DB_RETRY_SECONDS: wrong })).toThrow(/DB_RETRY_SECONDS:/);
  });

  it("requires both Stripe keys or neither", () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: "sk_test_x" })).toThrow(/STRIPE_PUBLISHABLE_KEY/);
  });

  describe("the built-in stand-ins are a named choice", () => {
    const publicSite = { PUBLIC_URL: "https://museum.example", SMTP_URL: "smtp://mail.example:587" };

    it("runs test payments and log-only mail on the embedded local site", () => {
      for (const url of [undefined, "http://localhost:8080", "http://127.0.0.1:3000", "http://[::1]:3000"]) {
        const c = loadConfig(url ? { PUBLIC_URL: url } : {});
        expect([c.PAYMENTS, c.MAIL]).toEqual(["test", "log"]);
      }
    });

    it("refuses to start a public site without Stripe keys, naming the variables", () => {
      expect(() => loadConfig(publicSite)).toThrow(ConfigError);
      expect(() => loadConfig(publicSite)).toThrow(/STRIPE_SECRET_KEY.*STRIPE_PUBLISHABLE_KEY.*PAYMENTS=test/s);
    });

    it("refuses to start a public site without SMTP, naming the variables", () => {
      const env = { PUBLIC_URL: "https://museum.example", STRIPE_SECRET_KEY: "sk_live_x", STRIPE_PUBLISHABLE_KEY: "pk_live_x" };
      expect(() => loadConfig(env)).toThrow(/SMTP_URL.*MAIL=log/s);
      expect(loadConfig({ ...env, SMTP_URL: "smtp://mail.example" }).MAIL).toBe("smtp");
    });

    it("runs a public site in test mode only when chosen by name", () => {
      const c = loadConfig({ ...publicSite, PAYMENTS: "test", MAIL: "log" });
      expect([c.PAYMENTS, c.MAIL]).toEqual(["test", "log"]);
      expect(loadConfig({ ...publicSite, STRIPE_SECRET_KEY: "sk_live_x", STRIPE_PUBLISHABLE_KEY: "pk_live_x" }).PAYMENTS).toBe("stripe");
      expect(() => loadConfig({ PAYMENTS: "stripe" })).toThrow(/STRIPE_SECRET_KEY/);
      expect(() => loadConfig({ PAYMENTS: "free" })).toThrow(/PAYMENTS:/);
    });
  });

  describe("TRUST_PROXY", () => {
    it("trusts no proxy by default", () => {
      expect(loadConfig({}).TRUST_PROXY).toBe(false);
    });

    it("takes a hop count or a list of addresses, subnets and Express's names", () => {
      expect(loadConfig({ TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
      expect(loadConfig({ TRUST_PROXY: "10.0.0.0/8, loopback, fd00::/8" }).TRUST_PROXY).toEqual(["10.0.0.0/8", "loopback", "fd00::/8"]);
    });

    it("refuses true and anything that is not an address", () => {
      expect(() => loadConfig({ TRUST_PROXY: "true" })).toThrow(/TRUST_PROXY:.*forge/);
      expect(() => loadConfig({ TRUST_PROXY: "nginx.local" })).toThrow(/TRUST_PROXY:/);
    });
  });
});

describe("warnAboutStandIns", () => {
  it("warns at boot about each stand-in in use", async () => {
    const { warnAboutStandIns } = await import("../../server/boot");
    const lines: string[] = [];
    const logger = { warn: (_o: unknown, message: string) => lines.push(message) } as unknown as Parameters<typeof warnAboutStandIns>[1];
    warnAboutStandIns(loadConfig({ PUBLIC_URL: "https://museum.example", PAYMENTS: "test", MAIL: "log" }), logger);
    expect(lines.join("\n")).toMatch(/TEST MODE.*no card is charged/);
    expect(lines.join("\n")).toMatch(/email is NOT SENT/);
    lines.length = 0;
    warnAboutStandIns(loadConfig({ PUBLIC_URL: "https://museum.example", SMTP_URL: "smtp://m", STRIPE_SECRET_KEY: "sk", STRIPE_PUBLISHABLE_KEY: "pk" }), logger);
    expect(lines).toEqual([]);
  });
});
