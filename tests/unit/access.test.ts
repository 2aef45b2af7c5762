import { describe, expect, it } from "vitest";
import { canSeeMemberContent, isTicketValid } from "~/shared/access";
import { calendarDateIn, clockTimeIn, daysUntil } from "~/shared/calendar";
import { bottomMenuItems, topNavItems } from "~/lib/navigation";

describe("access state", () => {
  it("counts a ticket valid through today as valid, yesterday as expired", () => {
    expect(isTicketValid("2026-03-10", "2026-03-10")).toBe(true);
    expect(isTicketValid("2026-03-09", "2026-03-10")).toBe(false);
    expect(isTicketValid(null, "2026-03-10")).toBe(false);
    expect(daysUntil("2026-03-20", "2026-03-10")).toBe(10);
  });

  it("takes today's date in the museum's time zone, not UTC", () => {
    // 02:30 UTC on March 11 is still March 10 in Pittsburgh.
    const now = new Date("2026-03-11T02:30:00Z");
    expect(calendarDateIn("America/New_York", now)).toBe("2026-03-10");
    expect(calendarDateIn("UTC", now)).toBe("2026-03-11");
  });

  it("gives the console's times on the museum's clock, with the zone's name", () => {
    expect(clockTimeIn("America/New_York", new Date("2026-11-26T02:30:00Z"))).toBe("2026-11-25 21:30 EST");
    expect(clockTimeIn("America/New_York", new Date("2026-07-04T16:05:09Z"), { seconds: true })).toBe("2026-07-04 12:05:09 EDT");
    expect(clockTimeIn("UTC", new Date("2026-07-04T00:00:00Z"))).toBe("2026-07-04 00:00 UTC");
  });

  it("is unaffected by a daylight-saving change inside the period", () => {
    expect(daysUntil("2026-03-09", "2026-03-07")).toBe(2);
    expect(daysUntil("2026-11-02", "2026-10-31")).toBe(2);
  });

  it("lets only members see member content", () => {
    const base = { firstName: "A", lastName: "B", emailAddress: "a@b.c", validThrough: null };
    expect(canSeeMemberContent(null)).toBe(false);
    expect(canSeeMemberContent({ ...base, member: false })).toBe(false);
    expect(canSeeMemberContent({ ...base, member: true })).toBe(true);
  });
});

describe("navigation", () => {
  const shop = "https://shop.example";
  const labels = (items: { label: string }[]) => items.map((i) => i.label);

  it("gives members Shop, About, Contact, Account on top and Logout at the bottom", () => {
    expect(labels(topNavItems(true, shop))).toEqual(["Shop", "About", "Contact", "Account"]);
    expect(labels(bottomMenuItems(true, shop))).toEqual(["Home", "Shop", "About", "Contact", "Account", "Logout"]);
  });

  it("gives a signed-in account without a valid ticket Admission, Account and Logout", () => {
    expect(labels(topNavItems(false, shop, true))).toEqual(["Shop", "About", "Admission", "Contact", "Account", "Logout"]);
    expect(labels(bottomMenuItems(false, shop, true))).toEqual(["Home", "Shop", "About", "Admission", "Contact", "Account", "Logout"]);
  });

  it("gives everyone else Admission and Login", () => {
    expect(labels(topNavItems(false, shop))).toEqual(["Shop", "About", "Admission", "Contact", "Login"]);
    expect(labels(bottomMenuItems(false, shop))).toEqual(["Home", "Shop", "About", "Admission", "Contact", "Login"]);
  });

  it("uses the mobile wording and the external shop address", () => {
    const items = topNavItems(false, shop);
    expect(items.find((i) => i.key === "admission")?.mobileLabel).toBe("Buy Your Ticket");
    expect(items.find((i) => i.key === "about")?.mobileLabel).toBe("About the Museum");
    expect(items.find((i) => i.key === "shop")).toMatchObject({ href: shop, external: true });
  });
});
