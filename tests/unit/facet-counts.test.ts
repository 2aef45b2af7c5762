/**
 * The search's facet counts, summed from the hits' facet groups: each facet counted under the
 * query and the other filters, the total under all of them, labels and order as the collection
 * gives them.
 */
import { describe, expect, it } from "vitest";
import { countFacets, groupPasses, type FacetGroup, type FacetLabels } from "../../server/search/facet-counts";

const PIRATES = "00000000-0000-4000-8000-000000000001";
const STEELERS = "00000000-0000-4000-8000-000000000002";
const GONE = "00000000-0000-4000-8000-000000000009";
const BASEBALL = "00000000-0000-4000-8000-0000000000b1";
const FOOTBALL = "00000000-0000-4000-8000-0000000000f1";

const labels: FacetLabels = {
  teams: new Map([
    [PIRATES, { name: "Pittsburgh Pirates", order: 2 }],
    [STEELERS, { name: "Pittsburgh Steelers", order: 1 }],
  ]),
  categories: new Map([
    [BASEBALL, { name: "Baseball", order: 1 }],
    [FOOTBALL, { name: "Football", order: 0 }],
  ]),
};

const group = (over: Partial<FacetGroup>): FacetGroup => ({ kind: "exhibit", teamIds: [], categoryId: null, decade: null, favoriteStory: false, ...over });
const piratesStory = group({ teamIds: [PIRATES], categoryId: BASEBALL, decade: 1970, favoriteStory: true });
const steelers1970s = group({ teamIds: [STEELERS], categoryId: FOOTBALL, decade: 1970 });
const steelers2000s = group({ teamIds: [STEELERS], categoryId: FOOTBALL, decade: 2000 });
const bothTeamsPerson = group({ kind: "enshrinee", teamIds: [PIRATES, STEELERS], decade: 1960 });
const hits = [
  [piratesStory, 3],
  [steelers1970s, 5],
  [steelers2000s, 2],
  [bothTeamsPerson, 1],
] as const;

describe("facet counts", () => {
  it("counts every hit once in the total and once per value of each facet, in the collection's order", () => {
    const { hits: all, total, facets } = countFacets(hits, {}, labels);
    expect(all).toBe(11);
    expect(total).toBe(11);
    expect(facets.type).toEqual([
      { value: "exhibit", label: "Exhibits", count: 10 },
      { value: "enshrinee", label: "Enshrinees", count: 1 },
    ]);
    // An enshrinee of two teams counts for both.
    expect(facets.team).toEqual([
      { value: STEELERS, label: "Pittsburgh Steelers", count: 8 },
      { value: PIRATES, label: "Pittsburgh Pirates", count: 4 },
    ]);
    expect(facets.category).toEqual([
      { value: FOOTBALL, label: "Football", count: 7 },
      { value: BASEBALL, label: "Baseball", count: 3 },
    ]);
    expect(facets.decade).toEqual([
      { value: "1960", label: "1960s", count: 1 },
      { value: "1970", label: "1970s", count: 8 },
      { value: "2000", label: "2000s", count: 2 },
    ]);
    expect(facets.favoriteStory).toEqual([{ value: "true", label: "Favorite stories", count: 3 }]);
  });

  it("counts a facet under the other filters, not its own, and the total under all of them", () => {
    const { hits: all, total, facets } = countFacets(hits, { team: STEELERS, decade: 1970 }, labels);
    expect(all).toBe(11);
    expect(total).toBe(5);
    // Teams under the decade only: every team with hits in the 1970s stays choosable.
    expect(facets.team).toEqual([
      { value: STEELERS, label: "Pittsburgh Steelers", count: 5 },
      { value: PIRATES, label: "Pittsburgh Pirates", count: 3 },
    ]);
    // Decades under the team only.
    expect(facets.decade).toEqual([
      { value: "1960", label: "1960s", count: 1 },
      { value: "1970", label: "1970s", count: 5 },
      { value: "2000", label: "2000s", count: 2 },
    ]);
    expect(facets.type).toEqual([{ value: "exhibit", label: "Exhibits", count: 5 }]);
    expect(facets.favoriteStory).toEqual([]);
  });

  it("keeps the favorite-stories value when it is the filter chosen, even with no hits", () => {
    const { total, facets } = countFacets([[steelers1970s, 5]], { favoriteStory: true }, labels);
    expect(total).toBe(0);
    expect(facets.favoriteStory).toEqual([{ value: "true", label: "Favorite stories", count: 0 }]);
    expect(countFacets([[steelers1970s, 5]], { favoriteStory: false }, labels).total).toBe(5);
  });

  it("leaves out a team or category the collection no longer has", () => {
    const { facets } = countFacets([[group({ teamIds: [GONE, PIRATES], categoryId: GONE }), 2]], {}, labels);
    expect(facets.team).toEqual([{ value: PIRATES, label: "Pittsburgh Pirates", count: 2 }]);
    expect(facets.category).toEqual([]);
  });

  it("answers no hits with empty facets", () => {
    expect(countFacets([], { type: "exhibit" }, labels)).toEqual({
      hits: 0,
      total: 0,
      facets: { type: [], team: [], category: [], decade: [], favoriteStory: [] },
    });
  });

  it("passes a group through each filter as the results page's SQL does", () => {
    expect(groupPasses(bothTeamsPerson, { team: STEELERS, type: "enshrinee" })).toBe(true);
    expect(groupPasses(bothTeamsPerson, { type: "exhibit" })).toBe(false);
    expect(groupPasses(bothTeamsPerson, { type: "exhibit" }, "type")).toBe(true);
    expect(groupPasses(piratesStory, { category: FOOTBALL })).toBe(false);
    expect(groupPasses(piratesStory, { decade: 1970, favoriteStory: true })).toBe(true);
    expect(groupPasses(piratesStory, { favoriteStory: false })).toBe(false);
  });
});
