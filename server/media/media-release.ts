/**
 * The one rule for deleting a media original (decision 048): an original goes
 * only when no record names it any more. Every path that deletes one (an exhibit's photo removed,
 * an enshrinee's portrait replaced or removed, the Trash's purge) asks `releaseOriginals` in the
 * transaction that drops its own record, and removes this instance's disk copies with
 * `removeDiskCopies` once that transaction has committed. The records that name media: teams'
 * logos, exhibits' thumbnails and matching photos, exhibit photos, enshrinees' portraits, banner
 * slides, and every trash entry (which may be restored), whatever field of its snapshot names it.
 */
import { sql } from "drizzle-orm";
import { queryRows, type Database } from "../db/client";
import { bannerSlides, enshrinees, exhibitPhotos, exhibits, teams, trash } from "../db/schema";
import type { MediaExecutor } from "./media-objects";
import type { MediaStorage } from "./media-storage";

/** The transaction (or database) the check and the deletes run in. */
type Executor = MediaExecutor & Pick<Database, "execute">;

/**
 * Whether some record, live or in the trash, names `key`. A trash entry names it when it lists it
 * among its media or its snapshot holds it as a JSON string, in any field (keys have no quotes or
 * escapes, isMediaKey): an exhibit's photos, thumbnail, a team's logo, a slide's file.
 */
export async function isOriginalNamed(tx: Executor, key: string): Promise<boolean> {
  const [row] = await queryRows<{ named: boolean }>(
    tx as Database,
    sql`select exists(select 1 from ${teams} where ${teams.logo} = ${key})
        or exists(select 1 from ${exhibits} where ${exhibits.thumbnail} = ${key} or ${exhibits.matchingPhoto} = ${key})
        or exists(select 1 from ${exhibitPhotos} where ${exhibitPhotos.file} = ${key})
        or exists(select 1 from ${enshrinees} where ${enshrinees.portrait} = ${key})
        or exists(select 1 from ${bannerSlides} where ${bannerSlides.file} = ${key})
        or exists(select 1 from ${trash} where ${trash.media} @> jsonb_build_array(${key}::text) or strpos(${trash.snapshot}::text, to_jsonb(${key}::text)::text) > 0) as named`,
  );
  return Boolean(row?.named);
}

/**
 * In the transaction that stopped naming `keys` (after its own rows changed): deletes the shared
 * originals (PostgreSQL, decision 024) that nothing names any more (rows this transaction deleted
 * or changed no longer count) and returns them, for `removeDiskCopies` once the transaction
 * commits. A key still named is kept and not returned.
 */
export async function releaseOriginals(tx: Executor, storage: Pick<MediaStorage, "forget">, keys: (string | null | undefined)[]): Promise<string[]> {
  const free: string[] = [];
  for (const key of new Set(keys)) if (key && !(await isOriginalNamed(tx, key))) free.push(key);
  if (free.length) await storage.forget(tx, free);
  return free;
}

/** This instance's disk copies of released originals, after the transaction that released them committed. */
export async function removeDiskCopies(storage: Pick<MediaStorage, "remove">, keys: string[]): Promise<void> {
  await Promise.all(keys.map((key) => storage.remove(key).catch(() => undefined)));
}
