/**
 * Addresses of exhibits, teams, categories and enshrinees, and the exhibit page's back link
 * (spec section 2): from an enshrinee, back to that enshrinee's exhibits; otherwise (from the
 * team or from favorite stories alike) the category if the exhibit is active, else the team.
 */
import { slugify } from "./text";

export const teamPath = (teamId: string) => `/teams/${teamId}`;
export const categoryPath = (teamId: string, categoryId: string) => `/teams/${teamId}/${categoryId}`;
export const exhibitPath = (e: { _id: string; title: string; team: { _id: string } }) =>
  `/teams/${e.team._id}/${slugify(e.title)}/${e._id}`;
export const enshrineePath = (p: { _id: string; fullName: string }) => `/enshrinees/${slugify(p.fullName)}/${p._id}`;
export const enshrineeExhibitPath = (p: { _id: string; fullName: string }, exhibitId: string) =>
  `/${slugify(p.fullName)}/${p._id}/exhibit/${exhibitId}`;
export const favoriteStoryPath = (exhibitId: string) => `/favoritestories/exhibit/${exhibitId}`;

export type ExhibitOrigin =
  | { kind: "team" }
  | { kind: "enshrinee"; enshrinee: { _id: string; fullName: string } }
  | { kind: "favorites" };

export interface BackLink {
  to: string;
  label: string;
}

export function exhibitBackLink(
  exhibit: { active: boolean; team: { _id: string; name: string }; category: { _id: string; categoryName: string } },
  origin: ExhibitOrigin,
): BackLink {
  if (origin.kind === "enshrinee") {
    return { to: `${enshrineePath(origin.enshrinee)}#exhibits`, label: `Back to ${origin.enshrinee.fullName}'s exhibits` };
  }
  if (exhibit.active) {
    return {
      to: categoryPath(exhibit.team._id, exhibit.category._id),
      label: `Back to ${exhibit.team.name}: ${exhibit.category.categoryName}`,
    };
  }
  return { to: teamPath(exhibit.team._id), label: `Back to ${exhibit.team.name}` };
}
