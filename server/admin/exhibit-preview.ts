/**
 * What a visitor and a member would see of an exhibit, saved or not, active or not: the
 * catalog's own record (uncached), with the edit form's unsaved values laid over it when given
 * (the text sanitized exactly as saving would), cut by the same gating as the public pages.
 */
import { eq } from "drizzle-orm";
import type { ExhibitView } from "../../app/shared/catalog-types";
import { createCatalog } from "../catalog/catalog-service";
import { gateExhibit } from "../catalog/gating";
import type { Database } from "../db/client";
import { categories, teams } from "../db/schema";
import { plainTextOf, sanitizeRichText } from "./rich-text";

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

export function createExhibitPreview(db: Database) {
  const catalog = createCatalog(db);
  return async function previewExhibit(id: string | null, draft: ExhibitDraft | null): Promise<{ visitor: ExhibitView; member: ExhibitView } | null> {
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
    if (!view) return null;
    return { visitor: gateExhibit(view, false), member: gateExhibit(view, true) };
  };
}
