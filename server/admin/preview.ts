/**
 * The console's preview (decision 015): what a visitor and what a member would see of
 * a page, for a record saved (active or not) or for an edit form's values not saved yet, before
 * anything is written. One mechanism for every kind: the record is read from an uncached catalog
 * (so inactive records and changes not yet in the caches show), the form's values are laid over
 * it (texts cleaned exactly as saving would), and each tier's view is built by the same reads and
 * gating the public pages use. Nothing here writes; the answers are never stored by the page cache
 * (console pages carry a session).
 */
import { and, asc, eq } from "drizzle-orm";
import type { BannerSlideView, CategoryView, EnshrineeView, ExhibitView, TeamView } from "../../app/shared/catalog-types";
import { bannerSlideView, createCatalog, teamView } from "../catalog/catalog-service";
import { gateEnshrinee, gateExhibit } from "../catalog/gating";
import type { Database } from "../db/client";
import { categories, exhibits, teams } from "../db/schema";
import { biographyColumns, type BannerSlideInput, type CategoryInput, type EnshrineeInput, type TeamInput } from "../catalog/collection-writes";
import { plainTextOf, sanitizeRichText } from "../catalog/rich-text";

export interface ExhibitDraft {
  teamId: string;
  categoryId: string;
  title: string;
  shortTitle: string;
  descriptionHtml: string;
  year: number;
  active: boolean;
  favoriteStory: boolean;
}

/** A page's view for each tier. */
export interface Tiers<View> {
  visitor: View;
  member: View;
}

export interface TeamPageView {
  team: TeamView;
  categories: CategoryView[];
}
export interface CategoryPageView {
  team: TeamView;
  category: CategoryView;
  exhibits: ExhibitView[];
  /** The teams with this category, to preview it under another. */
  teams: { _id: string; name: string }[];
}
export interface HomePageView {
  teams: TeamView[];
  banners: { desktop: BannerSlideView[]; mobile: BannerSlideView[] };
}
/** A change to one of the banner's slides, as the banner page's forms post it. */
export type BannerDraft = BannerSlideInput & { position: number | null };

/** Builds each tier's view with the public pages' own reads: `view(member)`. */
async function tiers<View>(view: (member: boolean) => Promise<View | null> | View | null): Promise<Tiers<View> | null> {
  const [visitor, member] = [await view(false), await view(true)];
  return visitor && member ? { visitor, member } : null;
}

export function createPreview(db: Database) {
  const catalog = createCatalog(db, { unpublished: true });

  return {
    async exhibit(id: string | null, draft: ExhibitDraft | null): Promise<Tiers<ExhibitView> | null> {
      const saved = id ? await catalog.getExhibit(id, true) : null;
      if (id && !saved) return null;
      let view: ExhibitView | null = saved;
      if (draft) {
        const [team] = await db.select({ id: teams.id, name: teams.name }).from(teams).where(eq(teams.id, draft.teamId)).limit(1);
        const [category] = await db.select({ id: categories.id, name: categories.categoryName }).from(categories).where(eq(categories.id, draft.categoryId)).limit(1);
        view = {
          ...(saved ?? { _id: "preview", exhibitPhotos: [], exhibitPhotoAlts: [], matchingPhoto: null, matchingPhotoAlt: null, thumbnailURL: "", thumbnailAlt: "" }),
          title: draft.title,
          shortTitle: draft.shortTitle,
          description: plainTextOf(sanitizeRichText(draft.descriptionHtml)),
          year: draft.year,
          active: draft.active,
          favoriteStory: draft.favoriteStory,
          team: team ? { _id: team.id, name: team.name } : (saved?.team ?? { _id: draft.teamId, name: "(no team)" }),
          category: category ? { _id: category.id, categoryName: category.name } : (saved?.category ?? { _id: draft.categoryId, categoryName: "(no category)" }),
        };
      }
      const exhibit = view;
      return exhibit ? tiers((member) => gateExhibit(exhibit, member)) : null;
    },

    /** The team page: the team's fields and its categories with active exhibits (none yet for a new team). */
    async team(id: string | null, draft: TeamInput | null): Promise<Tiers<TeamPageView> | null> {
      const saved = id ? await catalog.getTeam(id) : null;
      if (id && !saved) return null;
      if (!saved && !draft) return null;
      const team = draft ? teamView({ id: id ?? "preview", slug: "", ...draft }) : saved!;
      const list = id ? await catalog.categoriesWithActiveExhibits(id) : [];
      return tiers(() => ({ team, categories: list }));
    },

    /** The category page under one team (`teamId`, else the first with active exhibits in it, else the first team). */
    async category(id: string | null, draft: CategoryInput | null, teamId: string | null): Promise<Tiers<CategoryPageView> | null> {
      const saved = id ? await catalog.getCategory(id) : null;
      if (id && !saved) return null;
      if (!saved && !draft) return null;
      const category: CategoryView = draft ? { _id: id ?? "preview", categoryName: draft.categoryName } : saved!;
      const withCategory = id
        ? await db
            .selectDistinct({ _id: teams.id, name: teams.name, sortOrder: teams.sortOrder })
            .from(teams)
            .innerJoin(exhibits, and(eq(exhibits.teamId, teams.id), eq(exhibits.categoryId, id), eq(exhibits.active, true)))
            .orderBy(asc(teams.sortOrder), asc(teams.name))
        : [];
      const all = await catalog.listTeams();
      const team = all.find((t) => t._id === teamId) ?? all.find((t) => t._id === withCategory[0]?._id) ?? all[0];
      if (!team) return null;
      return tiers(async (member) => ({
        team,
        category,
        exhibits: id ? await catalog.listExhibits({ team: team._id, category: id, active: true }, member) : [],
        teams: withCategory.map(({ _id, name }) => ({ _id, name })),
      }));
    },

    /** The enshrinee page with its Exhibits and Mentions (the links are saved from the exhibits' side). */
    async enshrinee(id: string | null, draft: EnshrineeInput | null): Promise<Tiers<EnshrineeView> | null> {
      const saved = id ? await catalog.getEnshrinee(id, true) : null;
      if (id && !saved) return null;
      if (!saved && !draft) return null;
      const typed = draft ? { ...draft, ...biographyColumns(draft.biography) } : {};
      const full: EnshrineeView = { ...(saved ?? { _id: "preview", exhibits: [] }), ...typed } as EnshrineeView;
      return tiers((member) => gateEnshrinee(full, member));
    },

    /** The home page's slides, desktop and mobile, with one slide added or changed when given. */
    async banner(draft: BannerDraft | null): Promise<Tiers<HomePageView>> {
      const [teamList, banners] = await Promise.all([catalog.listTeams(), catalog.bannerSlides()]);
      if (draft) {
        const { variant, position, ...slide } = draft;
        const list = [...banners[variant]];
        if (position !== null && position >= 0 && position < list.length) list[position] = bannerSlideView(slide);
        else list.push(bannerSlideView(slide));
        banners[variant] = list;
      }
      return (await tiers(() => ({ teams: teamList, banners })))!;
    },
  };
}

