import { describe, expect, it } from "vitest";
import { exhibitBackLink } from "~/shared/exhibit-links";
import { logoUrl } from "~/shared/images";
import { slugify, truncateAtWord } from "~/shared/text";
import { sortByYear } from "../../server/catalog/catalog-service";
import { gateEnshrinee, gateExhibit } from "../../server/catalog/gating";
import { MEMBER_ONLY_EXHIBIT_FIELDS, type ExhibitView } from "~/shared/catalog-types";

describe("truncateAtWord", () => {
  it("leaves text of 500 characters or fewer alone", () => {
    const text = "a".repeat(500);
    expect(truncateAtWord(text)).toEqual({ text, truncated: false });
  });

  it("cuts longer text at the last word boundary within 500 characters", () => {
    const words = Array.from({ length: 120 }, (_, i) => `word${i}`).join(" ");
    const { text, truncated } = truncateAtWord(words);
    expect(truncated).toBe(true);
    expect(text.endsWith("…")).toBe(true);
    const kept = text.slice(0, -1);
    expect(kept.length).toBeLessThanOrEqual(500);
    expect(words.startsWith(kept)).toBe(true);
    // never half a word
    expect(words[kept.length]).toBe(" ");
  });

  it("drops trailing punctuation at the cut", () => {
    const text = `${"x".repeat(495)}, yesterday and more words here`;
    expect(truncateAtWord(text).text).toBe(`${"x".repeat(495)}…`);
  });

  it("cuts a single enormous word hard", () => {
    expect(truncateAtWord("y".repeat(900)).text).toBe(`${"y".repeat(500)}…`);
  });
});

describe("sortByYear", () => {
  it("orders Exhibits and Mentions by year ascending, then title", () => {
    const sorted = sortByYear([
      { year: 1979, title: "B" },
      { year: 1925, title: "Z" },
      { year: 1979, title: "A" },
    ]);
    expect(sorted.map((e) => `${e.year}${e.title}`)).toEqual(["1925Z", "1979A", "1979B"]);
  });
});

describe("exhibit back link", () => {
  const exhibit = {
    active: true,
    team: { _id: "t1", name: "Pittsburgh Pirates" },
    category: { _id: "c1", categoryName: "Championships" },
  };
  it("goes to the category when the exhibit is active", () => {
    expect(exhibitBackLink(exhibit, { kind: "team" }).to).toBe("/teams/t1/c1");
  });
  it("goes to the team when the exhibit is not active", () => {
    expect(exhibitBackLink({ ...exhibit, active: false }, { kind: "team" }).to).toBe("/teams/t1");
  });
  it("goes to the enshrinee's exhibits when reached from an enshrinee", () => {
    const link = exhibitBackLink(exhibit, { kind: "enshrinee", enshrinee: { _id: "e1", fullName: "Roberto Clemente" } });
    expect(link.to).toBe("/enshrinees/roberto-clemente/e1#exhibits");
    expect(link.label).toContain("Roberto Clemente");
  });
});

describe("addresses", () => {
  it("adds height=150 to logos only under images/view/", () => {
    expect(logoUrl("/images/view/logos/pirates.svg")).toBe("/images/view/logos/pirates.svg?height=150");
    expect(logoUrl("https://cdn.example/logo.png")).toBe("https://cdn.example/logo.png");
  });
  it("slugifies names with accents and punctuation", () => {
    expect(slugify("Roberto Clemente")).toBe("roberto-clemente");
    expect(slugify("Honus Wagner's 1909 World Series!")).toBe("honus-wagner-s-1909-world-series");
    expect(slugify("Jaromír Jágr")).toBe("jaromir-jagr");
  });
});

describe("gating", () => {
  // Required<>: a field added to ExhibitView must be added here, and then it is public only if
  // the allow-list below says so. The test's lists are written out, not the production list.
  const full: Required<ExhibitView> = {
    _id: "x",
    title: "T",
    shortTitle: "S",
    team: { _id: "t", name: "N" },
    category: { _id: "c", categoryName: "C" },
    active: true,
    year: 1960,
    favoriteStory: false,
    description: "secret",
    descriptionHtml: "<p>secret</p>",
    thumbnailURL: "/images/view/exhibits/x/photo-1.svg?height=200",
    thumbnailAlt: "alt",
    exhibitPhotos: ["/images/view/exhibits/x/photo-1.svg"],
    exhibitPhotoAlts: ["alt"],
    matchingPhoto: null,
    matchingPhotoAlt: null,
  };
  /** What a visitor may see of an exhibit (spec section 4): everything else is member-only. */
  const PUBLIC_EXHIBIT_FIELDS = ["_id", "active", "category", "favoriteStory", "shortTitle", "team", "title", "year"];
  it("keeps only the public fields for visitors and everything for members", () => {
    const visitor = gateExhibit(full, false);
    expect(Object.keys(visitor).sort()).toEqual(PUBLIC_EXHIBIT_FIELDS);
    expect(JSON.stringify(visitor)).not.toContain("secret");
    expect(JSON.stringify(visitor)).not.toContain("photo-1");
    expect(visitor).toMatchObject({ title: "T", shortTitle: "S", year: 1960 });
    expect(gateExhibit(full, true)).toEqual(full);
  });
  it("the shared member-only list names every non-public field (the pages and the leak test use it)", () => {
    expect([...MEMBER_ONLY_EXHIBIT_FIELDS].sort()).toEqual(Object.keys(full).filter((f) => !PUBLIC_EXHIBIT_FIELDS.includes(f)).sort());
  });
  it("removes the biography and gates the linked exhibits", () => {
    const e = gateEnshrinee({ _id: "p", fullName: "F L", firstName: "F", lastName: "L", biography: "bio", exhibits: [full] }, false);
    expect(Object.keys(e).sort()).toEqual(["_id", "exhibits", "firstName", "fullName", "lastName"]);
    expect(Object.keys(e.exhibits[0]).sort()).toEqual(PUBLIC_EXHIBIT_FIELDS);
  });
});
