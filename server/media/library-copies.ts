/**
 * An exhibit's own copies of library images (decision 061). `library/` is a public folder (a
 * library image may be a team's logo, a banner slide, a portrait), but an exhibit's thumbnail and
 * matching photo are member-only: a library image named as one is copied into the exhibit's
 * folder, `exhibits/<id>/` (member-only, served only while a visible record names it, decision
 * 047), and the exhibit names the copy. The library's image stays where it is for its other uses.
 */
import path from "node:path";
import { isMediaKey, type MediaStorage } from "./media-storage";
import type { MediaExecutor } from "./media-objects";
import { LIBRARY_FOLDER } from "./media-library";

const isLibraryKey = (key: string | null | undefined): key is string => !!key && key.startsWith(`${LIBRARY_FOLDER}/`) && isMediaKey(key);

/**
 * Copies each library image among `keys` into `exhibits/<exhibitId>/` (the same file name) and
 * shares the copy in `tx` (PostgreSQL's originals; nothing on disk); returns each library key's
 * copy. A copy already stored is reused; a key the store does not hold is left as it is. Copies
 * written here are pushed on `written`, for the caller to remove should `tx` not commit.
 */
export async function exhibitCopies(tx: MediaExecutor, storage: MediaStorage, exhibitId: string, keys: readonly (string | null | undefined)[], written: string[]): Promise<Map<string, string>> {
  const copies = new Map<string, string>();
  for (const key of keys) {
    if (!isLibraryKey(key) || copies.has(key)) continue;
    const copy = `exhibits/${exhibitId}/${path.posix.basename(key)}`;
    if (!(await storage.exists(copy))) {
      if (!(await storage.copy(key, copy))) continue;
      written.push(copy);
      await storage.persist(tx, [copy]);
    }
    copies.set(key, copy);
  }
  return copies;
}
