/**
 * Facet counts of a search, summed in the process from the hits' facet groups (decision 014,
 * addendum 2): the database groups the hits by `facet_group` and sends each group's id and count;
 * the values of a group (type, teams, category, decade, favorite story) never change once it
 * exists, so they are read once per process and kept; labels and orders of teams and categories
 * come with each search, as the console may rename them at any time.
 */
import type { FacetValue, SearchAnswer, SearchFilters, SearchType } from "../../app/shared/search";

export type FacetKey = "type" | "team" | "category" | "decade" | "favoriteStory";

/** The filter values every document of a group shares (a row of `search_facet_groups`). */
export interface FacetGroup {
  kind: SearchType;
  teamIds: string[];
  categoryId: string | null;
  decade: number | null;
  favoriteStory: boolean;
}

/** A team's or a category's name and place in the lists. */
export interface FacetLabel {
  name: string;
  order: number;
}

export interface FacetLabels {
  teams: Map<string, FacetLabel>;
  categories: Map<string, FacetLabel>;
}

/** Whether a group passes the filters, all of them or all but one facet's own (as the SQL filter of the results page). */
export function groupPasses(group: FacetGroup, filters: SearchFilters, except?: FacetKey): boolean {
  if (filters.type && except !== "type" && group.kind !== filters.type) return false;
  if (filters.team && except !== "team" && !group.teamIds.includes(filters.team)) return false;
  if (filters.category && except !== "category" && group.categoryId !== filters.category) return false;
  if (filters.decade !== undefined && except !== "decade" && group.decade !== filters.decade) return false;
  if (filters.favoriteStory !== undefined && except !== "favoriteStory" && group.favoriteStory !== filters.favoriteStory) return false;
  return true;
}

const TYPE_LABELS: Record<SearchType, string> = { exhibit: "Exhibits", enshrinee: "Enshrinees" };
const TYPE_ORDER: Record<SearchType, number> = { exhibit: 0, enshrinee: 1 };

interface Tally {
  label: string;
  order: number;
  count: number;
}

function add(tallies: Map<string, Tally>, value: string, label: string, order: number, n: number) {
  const t = tallies.get(value);
  if (t) t.count += n;
  else tallies.set(value, { label, order, count: n });
}

/**
 * Hits, total under the filters and every facet's values (each counted under the query and the
 * other filters), from the groups of the hits and their counts. A team or category no longer in
 * the collection is left out.
 */
export function countFacets(
  counts: ReadonlyArray<readonly [group: FacetGroup, n: number]>,
  filters: SearchFilters,
  labels: FacetLabels,
): { hits: number; total: number; facets: SearchAnswer["facets"] } {
  let hits = 0;
  let total = 0;
  let favorite = 0;
  const type = new Map<string, Tally>();
  const team = new Map<string, Tally>();
  const category = new Map<string, Tally>();
  const decade = new Map<string, Tally>();
  for (const [group, n] of counts) {
    hits += n;
    if (groupPasses(group, filters)) total += n;
    if (groupPasses(group, filters, "type")) add(type, group.kind, TYPE_LABELS[group.kind], TYPE_ORDER[group.kind], n);
    if (groupPasses(group, filters, "team")) {
      for (const id of group.teamIds) {
        const label = labels.teams.get(id);
        if (label) add(team, id, label.name, label.order, n);
      }
    }
    if (group.categoryId !== null && groupPasses(group, filters, "category")) {
      const label = labels.categories.get(group.categoryId);
      if (label) add(category, group.categoryId, label.name, label.order, n);
    }
    if (group.decade !== null && groupPasses(group, filters, "decade")) add(decade, String(group.decade), `${group.decade}s`, group.decade, n);
    if (group.favoriteStory && groupPasses(group, filters, "favoriteStory")) favorite += n;
  }
  // Every group read has hits, so every value listed has a count.
  const list = (tallies: Map<string, Tally>): FacetValue[] =>
    [...tallies]
      .sort(([, a], [, b]) => a.order - b.order || a.label.localeCompare(b.label))
      .map(([value, t]) => ({ value, label: t.label, count: t.count }));
  const favoriteSelected = filters.favoriteStory === true;
  return {
    hits,
    total,
    facets: {
      type: list(type),
      team: list(team),
      category: list(category),
      decade: list(decade),
      // Favorite stories is one value, shown when it has hits or is the filter chosen.
      favoriteStory: favorite > 0 || favoriteSelected ? [{ value: "true", label: "Favorite stories", count: favorite }] : [],
    },
  };
}
