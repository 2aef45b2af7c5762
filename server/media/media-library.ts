/**
 * The media library (decision 061): every image the media store holds (this disk's media folder
 * with PGlite, PostgreSQL's originals with DATABASE_URL, decision 024), with its pixel size and
 * file size read from the file, its own description (alt text) and the records that use it.
 * `media_library` rows follow the store: `sync` adds a row for a file it does not list yet (an
 * upload from a form, a seeded file) and drops the rows of files gone. An image some record
 * names, live or in the Trash, is never deleted (decision 048's rule): the refusal says where.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import sharp from "sharp";
import { queryRows, type Database } from "../db/client";
import { bannerSlides, enshrinees, exhibitPhotos, exhibits, mediaLibrary, mediaObjects, teams, trash } from "../db/schema";
import { transactionRetrying } from "../db/retrying";
import { recordAudit, type Actor } from "../audit/audit-trail";
import { validateImageFile } from "../images/image-service";
import { filesUnder } from "./media-import";
import { isOriginalNamed, removeDiskCopies } from "./media-release";
import type { MediaObjects } from "./media-objects";
import type { MediaStorage } from "./media-storage";
import { cleanPhoto, MAX_UPLOAD_PIXELS } from "./photo-upload";

/** The folder the library's own uploads go to: public site images like logos and banners (member-only.ts). */
export const LIBRARY_FOLDER = "library";

/** A record that uses an image: what the library says, and the console page to open. */
export interface MediaUse {
  label: string;
  href: string;
}

export interface LibraryImage {
  key: string;
  width: number;
  height: number;
  bytes: number;
  alt: string;
  addedAt: Date;
  uses: MediaUse[];
}

export interface LibraryQuery {
  q?: string;
  /** Only images without a description. */
  missing?: boolean;
  /** Only images visitors may see (for a logo, a banner slide, a portrait): none of an exhibit's member-only files. */
  publicOnly?: boolean;
  page: number;
  pageSize: number;
}

export type LibraryOutcome = { ok: true; message: string } | { ok: false; status: 404 | 409; message: string; uses?: MediaUse[] };

export const MEDIA_GONE_MESSAGE = "That image is no longer in the media library.";

/** "Used by exhibit "X" (thumbnail) and team "Y": ..." as one sentence. */
export function inUseMessage(uses: MediaUse[]): string {
  const names = uses.map((u) => u.label);
  const list = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names[0];
  return `This image cannot be deleted: it is used by ${list}. Choose another image there first (or empty the Trash of it).`;
}

/** The uploaded file's name, kept in its key so a search by file name finds it: "Forbes Field 1960.JPG" → "forbes-field-1960". */
function nameSlug(name: string): string {
  const slug = name.replace(/\.[A-Za-z0-9]{1,5}$/, "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60).replace(/-+$/, "");
  return slug || "image";
}

const likeTerm = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const isOriginalKey = (key: string) => {
  try {
    validateImageFile(key);
    return true;
  } catch {
    return false;
  }
};

export function createMediaLibrary(o: { db: Database; storage: MediaStorage; mediaDir: string; objects?: MediaObjects; now?: () => Date }) {
  const { db, storage } = o;
  const now = o.now ?? (() => new Date());

  /** Every original the store holds, with its size in bytes. */
  async function storedKeys(): Promise<Map<string, number>> {
    const keys = new Map<string, number>();
    if (o.objects) {
      for (const row of await db.select({ key: mediaObjects.key, size: mediaObjects.size }).from(mediaObjects)) if (isOriginalKey(row.key)) keys.set(row.key, row.size);
      return keys;
    }
    for await (const key of filesUnder(path.resolve(o.mediaDir))) {
      if (!isOriginalKey(key)) continue;
      const stat = await fs.stat(path.join(o.mediaDir, key)).catch(() => null);
      if (stat?.isFile()) keys.set(key, stat.size);
    }
    return keys;
  }

  /** The pixel size of a stored original, read from its bytes (null when it cannot be read). */
  async function measure(key: string): Promise<{ width: number; height: number } | null> {
    let file = path.join(o.mediaDir, key);
    let temp: string | null = null;
    try {
      if (o.objects) {
        temp = path.join(os.tmpdir(), `media-measure-${randomUUID()}`);
        if (!(await o.objects.download(key, temp))) return null;
        file = temp;
      }
      const meta = await sharp(file, { limitInputPixels: MAX_UPLOAD_PIXELS }).metadata();
      const width = meta.autoOrient?.width ?? meta.width;
      const height = meta.autoOrient?.height ?? meta.height;
      return width && height ? { width, height } : null;
    } catch {
      return null;
    } finally {
      if (temp) await fs.rm(temp, { force: true }).catch(() => undefined);
    }
  }

  /** The first description a record gives the image (a thumbnail's, a photo's, a portrait's, a slide's), else "". */
  async function describedAs(key: string): Promise<string> {
    const [row] = await queryRows<{ alt: string | null }>(
      db,
      sql`select coalesce(
            (select ${exhibitPhotos.alt} from ${exhibitPhotos} where ${exhibitPhotos.file} = ${key} and ${exhibitPhotos.alt} <> '' limit 1),
            (select ${exhibits.thumbnailAlt} from ${exhibits} where ${exhibits.thumbnail} = ${key} and ${exhibits.thumbnailAlt} <> '' limit 1),
            (select ${exhibits.matchingPhotoAlt} from ${exhibits} where ${exhibits.matchingPhoto} = ${key} and ${exhibits.matchingPhotoAlt} <> '' limit 1),
            (select ${enshrinees.portraitAlt} from ${enshrinees} where ${enshrinees.portrait} = ${key} and ${enshrinees.portraitAlt} <> '' limit 1),
            (select ${bannerSlides.alt} from ${bannerSlides} where ${bannerSlides.file} = ${key} and ${bannerSlides.alt} <> '' limit 1)
          ) as alt`,
    );
    return row?.alt ?? "";
  }

  /** Adds the library row of one stored original (measured, described as a record describes it); false when it cannot be read. */
  async function add(key: string, bytes: number): Promise<boolean> {
    const size = await measure(key);
    if (!size) return false;
    await db.insert(mediaLibrary).values({ key, ...size, bytes, alt: await describedAs(key) }).onConflictDoNothing();
    return true;
  }

  /** Brings the library's rows in line with the store: rows for new files, none for files gone. */
  async function sync(): Promise<void> {
    const stored = await storedKeys();
    const listed = new Set((await db.select({ key: mediaLibrary.key }).from(mediaLibrary)).map((r) => r.key));
    for (const [key, bytes] of stored) if (!listed.has(key)) await add(key, bytes);
    const gone = [...listed].filter((key) => !stored.has(key));
    for (let i = 0; i < gone.length; i += 500) await db.delete(mediaLibrary).where(inArray(mediaLibrary.key, gone.slice(i, i + 500)));
  }

  /** The records using each of `keys`, live ones first, then Trash entries (which may be restored). */
  async function usesOf(on: Database, keys: string[]): Promise<Map<string, MediaUse[]>> {
    const uses = new Map<string, MediaUse[]>(keys.map((k) => [k, []]));
    if (!keys.length) return uses;
    const push = (key: string, use: MediaUse) => uses.get(key)?.push(use);
    const [teamRows, thumbRows, matchRows, photoRows, portraitRows, slideRows] = await Promise.all([
      on.select({ key: teams.logo, id: teams.id, name: teams.name }).from(teams).where(inArray(teams.logo, keys)).orderBy(asc(teams.name)),
      on.select({ key: exhibits.thumbnail, id: exhibits.id, title: exhibits.title }).from(exhibits).where(inArray(exhibits.thumbnail, keys)).orderBy(asc(exhibits.title)),
      on.select({ key: exhibits.matchingPhoto, id: exhibits.id, title: exhibits.title }).from(exhibits).where(inArray(exhibits.matchingPhoto, keys)).orderBy(asc(exhibits.title)),
      on.selectDistinct({ key: exhibitPhotos.file, id: exhibits.id, title: exhibits.title }).from(exhibitPhotos).innerJoin(exhibits, eq(exhibits.id, exhibitPhotos.exhibitId)).where(inArray(exhibitPhotos.file, keys)).orderBy(asc(exhibits.title)),
      on.select({ key: enshrinees.portrait, id: enshrinees.id, name: enshrinees.fullName }).from(enshrinees).where(inArray(enshrinees.portrait, keys)).orderBy(asc(enshrinees.fullName)),
      on.select({ key: bannerSlides.file, variant: bannerSlides.variant, position: bannerSlides.position }).from(bannerSlides).where(inArray(bannerSlides.file, keys)).orderBy(asc(bannerSlides.variant), asc(bannerSlides.position)),
    ]);
    for (const r of teamRows) push(r.key, { label: `team "${r.name}" (logo)`, href: `/admin/teams/${r.id}` });
    for (const r of thumbRows) push(r.key, { label: `exhibit "${r.title}" (thumbnail)`, href: `/admin/exhibits/${r.id}` });
    for (const r of matchRows) if (r.key) push(r.key, { label: `exhibit "${r.title}" (matching photo)`, href: `/admin/exhibits/${r.id}` });
    for (const r of photoRows) push(r.key, { label: `exhibit "${r.title}" (photos)`, href: `/admin/exhibits/${r.id}/photos` });
    for (const r of portraitRows) if (r.key) push(r.key, { label: `enshrinee "${r.name}" (portrait)`, href: `/admin/enshrinees/${r.id}` });
    for (const r of slideRows) push(r.key, { label: `${r.variant} banner slide ${r.position + 1}`, href: "/admin/banner" });
    // A trash entry names a key in its media list or anywhere in its snapshot (media-release.ts).
    const trashRows = await queryRows<{ key: string; label: string; kind: string }>(
      on,
      sql`select k.key, ${trash.label} as label, ${trash.kind} as kind from ${trash}
          join (select unnest(${sql.raw("array[")}${sql.join(keys.map((k) => sql`${k}::text`), sql`, `)}${sql.raw("]")}) as key) k
            on ${trash.media} @> jsonb_build_array(k.key) or strpos(${trash.snapshot}::text, to_jsonb(k.key)::text) > 0
          order by ${trash.deletedAt} desc`,
    );
    for (const r of trashRows) push(r.key, { label: `${r.kind} "${r.label}" in the Trash`, href: "/admin/trash" });
    return uses;
  }

  function where(query: Pick<LibraryQuery, "q" | "missing" | "publicOnly">): SQL | undefined {
    const parts: SQL[] = [];
    if (query.q) parts.push(or(ilike(mediaLibrary.key, likeTerm(query.q)), ilike(mediaLibrary.alt, likeTerm(query.q)))!);
    if (query.missing) parts.push(sql`btrim(${mediaLibrary.alt}) = ''`);
    if (query.publicOnly) parts.push(sql`${mediaLibrary.key} not like 'exhibits/%'`);
    return parts.length ? and(...parts) : undefined;
  }

  async function one(key: string): Promise<LibraryImage | null> {
    const [row] = await db.select().from(mediaLibrary).where(eq(mediaLibrary.key, key)).limit(1);
    if (!row) return null;
    return { ...row, uses: (await usesOf(db, [key])).get(key) ?? [] };
  }

  return {
    sync,

    /** A page of the library, newest first, each image with the records that use it. */
    async list(query: LibraryQuery): Promise<{ rows: LibraryImage[]; total: number; withoutDescription: number }> {
      await sync();
      const filter = where(query);
      const [rows, [{ total }], [{ missing }]] = await Promise.all([
        db
          .select()
          .from(mediaLibrary)
          .where(filter)
          .orderBy(desc(mediaLibrary.addedAt), asc(mediaLibrary.key))
          .limit(query.pageSize)
          .offset((query.page - 1) * query.pageSize),
        db.select({ total: count() }).from(mediaLibrary).where(filter),
        db.select({ missing: count() }).from(mediaLibrary).where(where({ missing: true })),
      ]);
      const uses = await usesOf(db, rows.map((r) => r.key));
      return { rows: rows.map((r) => ({ ...r, uses: uses.get(r.key) ?? [] })), total, withoutDescription: missing };
    },

    /** One image with its uses; a stored file the library does not list yet is added first. */
    async get(key: string): Promise<LibraryImage | null> {
      if (!isOriginalKey(key)) return null;
      const found = await one(key);
      if (found) return found;
      const bytes = (await storedKeys()).get(key);
      if (bytes === undefined || !(await add(key, bytes))) return null;
      return one(key);
    },

    /** The pixel size of a stored image, read from the file (its library row, added if missing). */
    async size(key: string): Promise<{ width: number; height: number } | null> {
      const image = await this.get(key);
      return image ? { width: image.width, height: image.height } : null;
    },

    /**
     * Changes an image's description (the library's own: records keep theirs). `seen`: the
     * description the person's page showed; when a colleague changed it since, nothing is saved
     * and the answer says what it reads now (decision 050: the console acts on what was seen).
     */
    async describe(actor: Actor, key: string, alt: string, seen?: string): Promise<LibraryOutcome> {
      return transactionRetrying(db, async (tx) => {
        const [before] = await tx.select().from(mediaLibrary).where(eq(mediaLibrary.key, key)).for("update");
        if (!before) return { ok: false, status: 404, message: MEDIA_GONE_MESSAGE } as const;
        if (seen !== undefined && seen !== before.alt && alt !== before.alt) {
          const now = before.alt ? `It now reads "${before.alt}".` : "It is now empty.";
          return { ok: false, status: 409, message: `Someone changed this description since you opened the page. ${now} Press Save description again to replace it with yours.` } as const;
        }
        await tx.update(mediaLibrary).set({ alt }).where(eq(mediaLibrary.key, key));
        await recordAudit(tx, actor, { action: "media.describe", entityType: "media", entityId: null, summary: `Described ${key}`, before: { key, alt: before.alt }, after: { key, alt } }, now());
        return { ok: true, message: alt ? "Description saved." : "Description removed." } as const;
      });
    },

    /**
     * Cleans and stores uploaded images in the library's folder (photo-upload.ts: decoded, no
     * metadata), each in its own transaction with its row. Throws PhotoRejected for a file that
     * is refused: the caller says so for that file and goes on with the others.
     */
    async upload(actor: Actor, bytes: Buffer, name: string, alt = ""): Promise<LibraryImage> {
      const clean = await cleanPhoto(bytes, name);
      const key = `${LIBRARY_FOLDER}/${randomUUID().slice(0, 8)}-${nameSlug(name)}.${clean.extension}`;
      await storage.put(key, clean.bytes);
      try {
        await transactionRetrying(db, async (tx) => {
          await storage.persist(tx, [key]);
          await tx.insert(mediaLibrary).values({ key, width: clean.width, height: clean.height, bytes: clean.bytes.length, alt, addedAt: now() });
          await recordAudit(tx, actor, { action: "media.upload", entityType: "media", entityId: null, summary: `Uploaded ${name} as ${key}`, after: { key, width: clean.width, height: clean.height, bytes: clean.bytes.length, alt } }, now());
        });
      } catch (error) {
        await storage.remove(key).catch(() => undefined);
        throw error;
      }
      return { key, width: clean.width, height: clean.height, bytes: clean.bytes.length, alt, addedAt: now(), uses: [] };
    },

    /** Deletes an image nothing names (decision 048); refused with where it is used otherwise. */
    async remove(actor: Actor, key: string): Promise<LibraryOutcome> {
      if (!isOriginalKey(key)) return { ok: false, status: 404, message: MEDIA_GONE_MESSAGE };
      const outcome = await transactionRetrying(db, async (tx): Promise<LibraryOutcome> => {
        const [row] = await tx.select().from(mediaLibrary).where(eq(mediaLibrary.key, key)).for("update");
        if (!row) return { ok: false, status: 404, message: MEDIA_GONE_MESSAGE };
        const uses = (await usesOf(tx as unknown as Database, [key])).get(key) ?? [];
        if (uses.length) return { ok: false, status: 409, message: inUseMessage(uses), uses };
        // The one rule's own check too (media-release.ts), should a new kind of record name media.
        if (await isOriginalNamed(tx, key)) return { ok: false, status: 409, message: inUseMessage([{ label: "a record", href: "/admin/media" }]) };
        await storage.forget(tx, [key]);
        await tx.delete(mediaLibrary).where(eq(mediaLibrary.key, key));
        await recordAudit(tx, actor, { action: "media.delete", entityType: "media", entityId: null, summary: `Deleted ${key}`, before: row }, now());
        return { ok: true, message: "Image deleted." };
      });
      if (outcome.ok) await removeDiskCopies(storage, [key]);
      return outcome;
    },
  };
}


