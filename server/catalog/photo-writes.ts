/**
 * An exhibit's photos from the console: uploads (several files at once), order, descriptions,
 * the thumbnail and the matching photo, removal. Files are cleaned and stored first
 * (server/media/); the rows, the audit entry and the change notification then commit together,
 * and when anything fails the files written for that upload are removed again, so a
 * half-finished upload leaves nothing behind. A removed photo's file goes after its row, unless
 * another record still names it (server/media/media-release.ts). With
 * DATABASE_URL the originals are written into (and deleted from) PostgreSQL inside those same
 * transactions (decision 024).
 */
import { randomUUID } from "node:crypto";
import { asc, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { exhibitPhotos, exhibits } from "../db/schema";
import { releaseOriginals, removeDiskCopies } from "../media/media-release";
import type { MediaStorage } from "../media/media-storage";
import { cleanPhoto, MAX_UPLOAD_FILE_BYTES, MAX_UPLOAD_FILES, PhotoRejected } from "../media/photo-upload";
import { recordAudit, refusedAsConflict, type Actor, type Saved } from "../audit/audit-trail";
import { transactionRetrying } from "../db/retrying";

export interface PhotoDeps {
  db: Database;
  storage: MediaStorage;
  now?: () => Date;
  notifyChange: (tx?: Database) => Promise<void>;
}

export interface PhotoLayout {
  /** Every photo's file, in the new order. */
  order: string[];
  /** Description of each photo by file. */
  alts: Record<string, string>;
  /** The file shown as the exhibit's thumbnail ("" = none). */
  thumbnail: string;
  /** The file shown as the matching photo ("" = none). */
  matching: string;
  /** The exhibit's version the form started from (decision 029); absent = not checked. */
  version?: number;
}

/** Cleans an uploaded file (server/media/photo-upload.ts) and stores it under `folder` with a fresh name; returns its key and size. */
export async function storeCleanPhoto(storage: MediaStorage, folder: string, bytes: Buffer, name: string): Promise<{ key: string; width: number; height: number }> {
  const clean = await cleanPhoto(bytes, name);
  const key = `${folder}/${randomUUID()}.${clean.extension}`;
  await storage.put(key, clean.bytes);
  return { key, width: clean.width, height: clean.height };
}

export function createPhotoWrites({ db, storage, now = () => new Date(), notifyChange }: PhotoDeps) {
  type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

  async function state(tx: Pick<Database, "select">, exhibitId: string) {
    const [exhibit] = await tx
      .select({ id: exhibits.id, version: exhibits.version, title: exhibits.title, thumbnail: exhibits.thumbnail, thumbnailAlt: exhibits.thumbnailAlt, matchingPhoto: exhibits.matchingPhoto, matchingPhotoAlt: exhibits.matchingPhotoAlt })
      .from(exhibits)
      .where(eq(exhibits.id, exhibitId))
      .limit(1);
    if (!exhibit) return null;
    const photos = await tx.select({ file: exhibitPhotos.file, alt: exhibitPhotos.alt }).from(exhibitPhotos).where(eq(exhibitPhotos.exhibitId, exhibitId)).orderBy(asc(exhibitPhotos.position));
    return { ...exhibit, photos };
  }

  async function commit(exhibitId: string, fn: (tx: Tx, before: NonNullable<Awaited<ReturnType<typeof state>>>) => Promise<Saved>): Promise<Saved> {
    const result = await transactionRetrying(db, async (tx) => {
      await tx.select({ id: exhibits.id }).from(exhibits).where(eq(exhibits.id, exhibitId)).for("update");
      const before = await state(tx, exhibitId);
      if (!before) return { ok: false, message: "This exhibit no longer exists." } as Saved;
      const outcome = await fn(tx, before);
      // Photos are part of the exhibit: arranging them makes a new version of it (decision 029).
      if (outcome.ok) await tx.update(exhibits).set({ version: sql`${exhibits.version} + 1` }).where(eq(exhibits.id, exhibitId));
      if (outcome.ok) await notifyChange(tx as unknown as Database);
      return outcome;
    });
    if (result.ok) await notifyChange();
    return result;
  }

  /** Forgets stored files of an upload that did not complete. */
  async function discard(keys: string[]): Promise<void> {
    await Promise.all(keys.map((k) => storage.remove(k).catch(() => undefined)));
  }

  async function rewrite(tx: Tx, exhibitId: string, photos: { file: string; alt: string }[]) {
    await tx.delete(exhibitPhotos).where(eq(exhibitPhotos.exhibitId, exhibitId));
    if (photos.length) await tx.insert(exhibitPhotos).values(photos.map((p, position) => ({ exhibitId, position, file: p.file, alt: p.alt })));
  }

  return {
    limits: { maxFiles: MAX_UPLOAD_FILES, maxFileBytes: MAX_UPLOAD_FILE_BYTES },

    /** Why an upload's file was refused ("not-image", "damaged", "pixels"), or null for any other error. */
    rejection(error: unknown): PhotoRejected["reason"] | null {
      return error instanceof PhotoRejected ? error.reason : null;
    },

    get: (exhibitId: string) => state(db, exhibitId),

    /** Cleans and stores one uploaded file under the exhibit's folder; returns its key. */
    async store(exhibitId: string, bytes: Buffer, name: string): Promise<string> {
      return (await storeCleanPhoto(storage, `exhibits/${exhibitId}`, bytes, name)).key;
    },

    discard,

    /** Cleans and stores a team logo or banner image (public folders); returns its key. */
    async storePublic(folder: "logos" | "banners", bytes: Buffer, name: string): Promise<{ key: string; width: number; height: number }> {
      const stored = await storeCleanPhoto(storage, folder, bytes, name);
      const key = stored.key;
      // Named later by a team or banner form (another request, maybe another instance): shared now.
      await transactionRetrying(db, (tx) => storage.persist(tx, [key])).catch(async (error: unknown) => {
        await discard([key]);
        throw error;
      });
      return stored;
    },

    /** Adds stored files at the end of the exhibit's photos (the first one becomes the thumbnail if it has none). */
    async add(actor: Actor, exhibitId: string, keys: string[], alt: string): Promise<Saved> {
      try {
        const result = await commit(exhibitId, async (tx, before) => {
          await storage.persist(tx, keys);
          const added = keys.map((file, i) => ({ file, alt: keys.length > 1 ? `${alt} (${i + 1} of ${keys.length})` : alt }));
          await rewrite(tx, exhibitId, [...before.photos, ...added]);
          if (!before.thumbnail && added.length) await tx.update(exhibits).set({ thumbnail: added[0].file, thumbnailAlt: added[0].alt }).where(eq(exhibits.id, exhibitId));
          const after = await state(tx, exhibitId);
          await recordAudit(tx, actor, { action: "exhibit.photos.add", entityType: "exhibit", entityId: exhibitId, summary: `Added ${keys.length} photo${keys.length === 1 ? "" : "s"} to ${before.title}`, before, after }, now());
          return { ok: true, id: exhibitId, message: `${keys.length} photo${keys.length === 1 ? "" : "s"} added.` };
        });
        if (!result.ok) await discard(keys);
        return result;
      } catch (error) {
        await discard(keys);
        throw error;
      }
    },

    /** Order, descriptions, thumbnail and matching photo, saved together. */
    arrange(actor: Actor, exhibitId: string, layout: PhotoLayout): Promise<Saved> {
      return commit(exhibitId, async (tx, before) => {
        const files = before.photos.map((p) => p.file);
        const order = layout.order.filter((f, i) => files.includes(f) && layout.order.indexOf(f) === i);
        for (const f of files) if (!order.includes(f)) order.push(f);
        const layoutOf = (o: string[], altOf: (file: string) => string, thumbnail: string, matching: string) => ({
          order: o,
          ...Object.fromEntries(o.map((file) => [`alt:${file}`, altOf(file).trim()])),
          thumbnail,
          matching,
        });
        const refused = refusedAsConflict(
          layout.version,
          before.version,
          layoutOf(order, (f) => layout.alts[f] ?? before.photos.find((p) => p.file === f)!.alt, layout.thumbnail, layout.matching),
          layoutOf(files, (f) => before.photos.find((p) => p.file === f)!.alt, before.thumbnail, before.matchingPhoto ?? ""),
        );
        if (refused) return refused;
        const errors: Record<string, string> = {};
        const photos = order.map((file, i) => {
          const alt = (layout.alts[file] ?? before.photos.find((p) => p.file === file)!.alt).trim();
          if (!alt) errors[`alt-${i}`] = `Please describe photo ${i + 1} for people who cannot see it`;
          return { file, alt };
        });
        if (Object.keys(errors).length) return { ok: false, message: "Every photo needs a description.", errors };
        if (layout.thumbnail && !files.includes(layout.thumbnail) && layout.thumbnail !== before.thumbnail) return { ok: false, message: "Choose the thumbnail among the exhibit's photos." };
        if (layout.matching && !files.includes(layout.matching) && layout.matching !== before.matchingPhoto) return { ok: false, message: "Choose the matching photo among the exhibit's photos." };
        await rewrite(tx, exhibitId, photos);
        const altOf = (file: string, fallback: string | null) => photos.find((p) => p.file === file)?.alt ?? fallback ?? "";
        await tx
          .update(exhibits)
          .set({
            thumbnail: layout.thumbnail,
            thumbnailAlt: layout.thumbnail ? altOf(layout.thumbnail, before.thumbnailAlt) : "",
            matchingPhoto: layout.matching || null,
            matchingPhotoAlt: layout.matching ? altOf(layout.matching, before.matchingPhotoAlt) : null,
          })
          .where(eq(exhibits.id, exhibitId));
        const after = await state(tx, exhibitId);
        await recordAudit(tx, actor, { action: "exhibit.photos.arrange", entityType: "exhibit", entityId: exhibitId, summary: `Arranged the photos of ${before.title}`, before, after }, now());
        return { ok: true, id: exhibitId, message: "Photos saved." };
      });
    },

    /** Removes one photo (and clears the thumbnail or matching photo if it was that one), then its file. */
    async remove(actor: Actor, exhibitId: string, file: string, expectedVersion?: number): Promise<Saved> {
      let released: string[] = [];
      const result = await commit(exhibitId, async (tx, before) => {
        if (!before.photos.some((p) => p.file === file)) return { ok: false, message: "That photo is already gone." };
        if (expectedVersion !== undefined && expectedVersion !== before.version)
          return { ok: false, message: "Someone else saved this exhibit while you were looking at its photos. Nothing was removed: here they are as they are now.", conflict: { version: String(before.version), fields: [] } };
        await rewrite(tx, exhibitId, before.photos.filter((p) => p.file !== file));
        if (before.thumbnail === file) await tx.update(exhibits).set({ thumbnail: "", thumbnailAlt: "" }).where(eq(exhibits.id, exhibitId));
        if (before.matchingPhoto === file) await tx.update(exhibits).set({ matchingPhoto: null, matchingPhotoAlt: null }).where(eq(exhibits.id, exhibitId));
        // Files of the console's own uploads may go; seeded files may be shared, so they stay. Either
        // way not while another record (an exhibit's thumbnail, a trash entry...) still names it.
        if (file.startsWith(`exhibits/${exhibitId}/`)) released = await releaseOriginals(tx, storage, [file]);
        const after = await state(tx, exhibitId);
        await recordAudit(tx, actor, { action: "exhibit.photos.remove", entityType: "exhibit", entityId: exhibitId, summary: `Removed a photo of ${before.title}`, before, after }, now());
        return { ok: true, id: exhibitId, message: "Photo removed." };
      });
      // The disk copy goes after its row: a page rendered meanwhile still finds it.
      if (result.ok) await removeDiskCopies(storage, released);
      return result;
    },
  };
}

