/** Search's text helpers: cleaning a search text, words, "Did you mean", snippets, addresses. */
import { describe, expect, it } from "vitest";
import { cleanQuery, HIGHLIGHT_END, HIGHLIGHT_START, searchHref } from "~/shared/search";
import { parseSearchPage } from "~/shared/search-schemas";
import { snippetRuns } from "../../server/search/search-service";
import { normalizeWord, queryWords, replaceWords } from "../../server/search/spelling";

describe("cleanQuery", () => {
  it("turns control characters, NUL and the highlight markers into spaces and trims", () => {
    expect(cleanQuery("  a\u0000b\tc\u007f\u0085d\uE000e\uE001  ")).toBe("a b c d e");
  });
  it("replaces lone surrogates, keeps pairs", () => {
    expect(cleanQuery("x\uD800y")).toBe("x\uFFFDy");
    expect(cleanQuery("⚾😀")).toBe("⚾😀");
  });
});

describe("spelling", () => {
  it("folds words as PostgreSQL's unaccent does", () => {
    expect(normalizeWord("Márquez")).toBe("marquez");
    expect(normalizeWord("Ørsted")).toBe("orsted");
    expect(normalizeWord("Straße")).toBe("strasse");
  });
  it("takes the words to look for from web-search syntax", () => {
    expect(queryWords('"immaculate reception" -raiders or clemente\'s')).toEqual(["immaculate", "reception", "clemente", "s"]);
    expect(queryWords("-x y", { keepExcluded: true })).toEqual(["x", "y"]);
  });
  it("puts corrected words in place, keeping the syntax and the other words", () => {
    expect(replaceWords('"Imaculate Reception" -raiders', new Map([["Imaculate", "immaculate"]]))).toBe('"immaculate Reception" -raiders');
  });
});

describe("snippetRuns", () => {
  it("splits ts_headline's marked text into plain and matched runs on one line", () => {
    expect(snippetRuns(`Roberto ${HIGHLIGHT_START}Clemente${HIGHLIGHT_END} doubled.\n\nHe`)).toEqual([
      { text: "Roberto ", match: false },
      { text: "Clemente", match: true },
      { text: " doubled. He", match: false },
    ]);
  });
});

describe("search addresses", () => {
  it("builds /search addresses without defaults, back to page 1 when a filter changes", () => {
    const request = { q: "a b", sort: "year" as const, page: 3, decade: 1970 };
    expect(searchHref(request)).toBe("/search?q=a+b&decade=1970&sort=year");
    expect(searchHref(request, { page: 4 })).toBe("/search?q=a+b&decade=1970&sort=year&page=4");
    expect(searchHref(request, { decade: undefined, sort: "relevance" })).toBe("/search?q=a+b");
  });
  it("reads a page address, leaving out what it cannot use", () => {
    expect(parseSearchPage(new URLSearchParams("q=x&decade=1975&type=exhibit"))).toEqual({
      request: { q: "x", sort: "relevance", page: 1, type: "exhibit" },
      invalid: true,
      tooLong: false,
    });
    expect(parseSearchPage(new URLSearchParams(`q=${"x".repeat(201)}`)).tooLong).toBe(true);
  });
});
