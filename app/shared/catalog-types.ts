/**
 * The collection as the pages and the JSON API see it (spec section 3 field names). Member-only
 * fields are optional: the server leaves them out for anyone who is not a member.
 */

export interface TeamView {
  _id: string;
  name: string;
  league: string;
  /** Image URL (with ?height=150, spec section 9). */
  logo: string;
  logoAlt: string;
  headline: string;
  description: string;
}

export interface CategoryView {
  _id: string;
  categoryName: string;
}

export interface ExhibitView {
  _id: string;
  title: string;
  shortTitle: string;
  team: { _id: string; name: string };
  category: CategoryView;
  active: boolean;
  year: number;
  favoriteStory: boolean;
  // ---- member-only ----
  description?: string;
  /** The text's formatting: HTML sanitized when staff saved it (null for plain texts). */
  descriptionHtml?: string | null;
  thumbnailURL?: string;
  thumbnailAlt?: string;
  exhibitPhotos?: string[];
  exhibitPhotoAlts?: string[];
  matchingPhoto?: string | null;
  matchingPhotoAlt?: string | null;
}

export interface EnshrineeSummary {
  _id: string;
  fullName: string;
  firstName: string;
  lastName: string;
  /** The portrait's address (images/view/portraits/..., public: decision 033), or null. */
  portrait?: string | null;
  /** The portrait's description ("" without a portrait). */
  portraitAlt?: string;
}

export interface EnshrineeView extends EnshrineeSummary {
  /** member-only */
  biography?: string;
  /** member-only: the biography's formatting, HTML sanitized when staff saved it (null for plain texts). */
  biographyHtml?: string | null;
  /** "Exhibits and Mentions", sorted by year ascending. */
  exhibits: ExhibitView[];
}

export interface BannerSlideView {
  src: string;
  alt: string;
  width: number;
  height: number;
}

export const MEMBER_ONLY_EXHIBIT_FIELDS = [
  "description",
  "descriptionHtml",
  "thumbnailURL",
  "thumbnailAlt",
  "exhibitPhotos",
  "exhibitPhotoAlts",
  "matchingPhoto",
  "matchingPhotoAlt",
] as const;
