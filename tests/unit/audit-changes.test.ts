/**
 * The audit log's changes as the page reads them (decision 063): one line per field that changed,
 * named in words, before and after as text (no JSON), nested values as fields of their own, a
 * long text as its word-level difference.
 */
import { describe, expect, it } from "vitest";
import { auditChanges, fieldLabel, linkedIds } from "../../server/audit/audit-changes";

describe("audit changes", () => {
  it("an edit lists only the fields it changed, named in words, with yes/no and lists as words", () => {
    const before = { id: "x", version: 3, updatedAt: "2026-11-20T10:00:00.000Z", title: "Immaculate Reception", year: 1972, active: true, favoriteStory: false, enshrineeIds: ["a", "b"] };
    const after = { id: "x", version: 4, updatedAt: "2026-11-25T10:00:00.000Z", title: "The Immaculate Reception", year: 1972, active: false, favoriteStory: false, enshrineeIds: ["a"] };
    expect(auditChanges(before, after)).toEqual([
      { field: "Title", before: "Immaculate Reception", after: "The Immaculate Reception" },
      { field: "Listing", before: "Yes", after: "No" },
      { field: "Enshrinees", before: "a, b", after: "a" },
    ]);
  });

  it("a created record lists what it was made with; a deleted one what it held; empty values say so", () => {
    expect(auditChanges(null, { email: "c@museum.example", role: "curator", deactivatedAt: null })).toEqual([
      { field: "Email", before: null, after: "c@museum.example" },
      { field: "Role", before: null, after: "curator" },
      { field: "Deactivated at", before: null, after: "(empty)" },
    ]);
    expect(auditChanges({ categoryName: "Jerseys", sortOrder: 2 }, null)).toEqual([
      { field: "Name", before: "Jerseys", after: null },
      { field: "Order", before: "2", after: null },
    ]);
  });

  it("nested values become fields of their own; instants are written on the given clock", () => {
    const lines = auditChanges({ payment: { amountCents: 4500, status: "paid" }, validThrough: "2026-12-31" }, { payment: { amountCents: 4500, status: "refunded" }, validThrough: null, at: "2026-11-26T02:30:05.000Z" }, () => "2026-11-25 21:30 EST");
    expect(lines).toEqual([
      { field: "Payment › Status", before: "paid", after: "refunded" },
      { field: "Valid through", before: "2026-12-31", after: "(empty)" },
      { field: "At", before: "(empty)", after: "2026-11-25 21:30 EST" },
    ]);
  });

  it("a long text is its word difference: removed and added words, the rest kept, tags gone", () => {
    const before = "<p>Franco Harris caught the deflected pass at the Steelers' own 42-yard line and ran it in for the winning touchdown with five seconds left.</p>";
    const after = "<p>Franco Harris caught the deflected pass at the Pittsburgh 42-yard line and ran it in for the winning touchdown with five seconds left on the clock.</p>";
    const [line] = auditChanges({ descriptionHtml: before }, { descriptionHtml: after });
    expect(line.field).toBe("Text (members only)");
    expect(line.before).not.toContain("<p>");
    const removed = line.difference!.filter((c) => c.change === "removed").map((c) => c.text.trim()).join(" ");
    const added = line.difference!.filter((c) => c.change === "added").map((c) => c.text.trim()).join(" ");
    expect(removed).toBe("Steelers' own");
    expect(added).toBe("Pittsburgh on the clock");
    expect(line.difference!.map((c) => (c.change === "removed" ? "" : c.text)).join("")).toBe(line.after);
  });

  it("links to other records read as their names when known, as stored otherwise", () => {
    const [steelers, pirates, franco, gone] = ["11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222", "33333333-3333-4333-8333-333333333333", "44444444-4444-4444-8444-444444444444"];
    const before = { teamId: steelers, enshrineeIds: [franco, gone] };
    const after = { teamId: pirates, enshrineeIds: [franco] };
    const ids = linkedIds([before, after, null, "text"]);
    expect([...ids.teamId].sort()).toEqual([steelers, pirates]);
    expect([...ids.enshrineeIds].sort()).toEqual([franco, gone]);
    const names = { teamId: new Map([[steelers, "Pittsburgh Steelers"], [pirates, "Pittsburgh Pirates"]]), enshrineeIds: new Map([[franco, "Franco Harris"]]) };
    expect(auditChanges(before, after, undefined, names)).toEqual([
      { field: "Team", before: "Pittsburgh Steelers", after: "Pittsburgh Pirates" },
      { field: "Enshrinees", before: `Franco Harris, ${gone}`, after: "Franco Harris" },
    ]);
  });

  it("labels: camel case and snake case in words, the forms' own names where they differ", () => {
    expect(fieldLabel("validThrough")).toBe("Valid through");
    expect(fieldLabel("stripe_payment_id")).toBe("Stripe payment id");
    expect(fieldLabel("publishAt")).toBe("Publication");
    expect(fieldLabel("0")).toBe("1");
  });
});
