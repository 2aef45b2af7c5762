/**
 * Shape of the demo collection that the seed loads. Content files export data in this shape;
 * the seeder turns slugs into stable ids and renders the posters.
 */

/** Category slugs shared by every team. Exhibits must use one of these. */
export const CATEGORY_NAMES = {
  championships: "Championships",
  legends: "Legendary Players",
  "historic-games": "Historic Games",
  venues: "Ballparks and Arenas",
  records: "Records and Milestones",
  builders: "Coaches and Builders",
  rivalries: "Rivalries",
  traditions: "Fans and Traditions",
  firsts: "Firsts and Breakthroughs",
} as const;

export type CategorySlug = keyof typeof CATEGORY_NAMES;

export interface SeedTeam {
  /** url-safe, unique, e.g. "steelers" */
  slug: string;
  name: string;
  /** e.g. "National Football League" */
  league: string;
  /** one line shown as the team page headline */
  headline: string;
  /** 2-4 paragraphs separated by blank lines ("\n\n") */
  description: string;
  /** poster colours, hex "#rrggbb" */
  colors: { primary: string; secondary: string; text: string };
}

export interface SeedPhoto {
  /** what the generated poster depicts; becomes the alt text and the caption drawn on the poster */
  caption: string;
}

export interface SeedExhibit {
  /** url-safe, unique across the whole collection */
  slug: string;
  team: string; // SeedTeam.slug
  category: CategorySlug;
  title: string;
  /** at most ~40 characters; what visitors see on buttons */
  shortTitle: string;
  /** paragraphs separated by "\n\n"; many longer than 500 characters */
  description: string;
  year: number;
  active: boolean;
  favoriteStory: boolean;
  /** 2 to 6 */
  photos: SeedPhoto[];
  matchingPhoto?: SeedPhoto;
}

export interface SeedEnshrinee {
  /** url-safe, unique */
  slug: string;
  firstName: string;
  lastName: string;
  fullName: string;
  /** paragraphs separated by "\n\n" */
  biography: string;
  /** SeedExhibit.slug values ("Exhibits and Mentions"); at least one */
  exhibits: string[];
}

export interface SeedCollectionPart {
  teams: SeedTeam[];
  exhibits: SeedExhibit[];
  enshrinees: SeedEnshrinee[];
}
