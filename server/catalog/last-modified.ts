/**
 * When each collection record last changed (updated_at, migration 0016): the sitemap's lastmod
 * (decision 027). One small read per table; the sitemap is cached by clients for an hour.
 */
import type { Database } from "../db/client";
import { categories, enshrinees, exhibits, teams } from "../db/schema";

export interface CollectionUpdateTimes {
  teams: Map<string, Date>;
  categories: Map<string, Date>;
  exhibits: Map<string, Date>;
  enshrinees: Map<string, Date>;
}

export function createLastModified(db: Database) {
  return {
    async collection(): Promise<CollectionUpdateTimes> {
      const [t, c, e, p] = await Promise.all([
        db.select({ id: teams.id, at: teams.updatedAt }).from(teams),
        db.select({ id: categories.id, at: categories.updatedAt }).from(categories),
        db.select({ id: exhibits.id, at: exhibits.updatedAt }).from(exhibits),
        db.select({ id: enshrinees.id, at: enshrinees.updatedAt }).from(enshrinees),
      ]);
      const map = (rows: { id: string; at: Date }[]) => new Map(rows.map((r) => [r.id, r.at]));
      return { teams: map(t), categories: map(c), exhibits: map(e), enshrinees: map(p) };
    },
  };
}
