/**
 * An enshrinee's portrait from the console (decision 033): one photo with its description,
 * uploaded and cleaned exactly like exhibit photos (server/media/photo-upload.ts: decoded,
 * re-encoded without EXIF/GPS, refused when not an image) and stored under
 * portraits/<enshrinee id>/. The row, the audit entry and the change notification commit
 * together (with DATABASE_URL the original goes into PostgreSQL in that same transaction,
 * decision 024); a replaced or removed portrait's file goes after its row (unless another record
 * still names it: server/media/media-release.ts), and an upload that fails leaves nothing behind.
 */
import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { enshrinees } from "../db/schema";
import { releaseOriginals, removeDiskCopies } from "../media/media-release";
import type { MediaStorage } from "../media/media-storage";
import { storeCleanPhoto } from "./photo-writes";
import { recordAudit, type Actor, type Saved } from "../audit/audit-trail";
import { transactionRetrying } from "../db/retrying";

export interface PortraitDeps {
  db: Database;
  storage: MediaStorage;
  now?: () => Date;
  notifyChange: (tx?: Database) => Promise<void>;
}

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];
type Portrait = { id: string; fullName: string; portrait: string | null; portraitAlt: string | null };

export function createPortraitWrites({ db, storage, now = () => new Date(), notifyChange }: PortraitDeps) {
  const ownFile = (id: string, file: string | null): file is string => !!file && file.startsWith(`portraits/${id}/`);

  async function state(tx: Pick<Database, "select">, id: string, lock = false): Promise<Portrait | null> {
    const query = tx.select({ id: enshrinees.id, fullName: enshrinees.fullName, portrait: enshrinees.portrait, portraitAlt: enshrinees.portraitAlt }).from(enshrinees).where(eq(enshrinees.id, id)).limit(1);
    const [row] = lock ? await query.for("update") : await query;
    return row ?? null;
  }

  /** Sets the portrait fields in one transaction with the audit entry; returns the file it replaced, if any. */
  async function write(actor: Actor, id: string, action: string, summary: (name: string) => string, fn: (tx: Tx, before: Portrait) => Promise<{ portrait: string | null; portraitAlt: string | null }>) {
    const result = await transactionRetrying(db, async (tx) => {
      const before = await state(tx, id, true);
      if (!before) return { saved: { ok: false, message: "This enshrinee no longer exists." } as Saved, dropped: [] };
      const values = await fn(tx, before);
      await tx.update(enshrinees).set(values).where(eq(enshrinees.id, id));
      // The replaced file goes unless another record (an exhibit's thumbnail, a trash entry...) still names it.
      const dropped = before.portrait !== values.portrait && ownFile(id, before.portrait) ? await releaseOriginals(tx, storage, [before.portrait]) : [];
      await recordAudit(tx, actor, { action, entityType: "enshrinee", entityId: id, summary: summary(before.fullName), before, after: { ...before, ...values } }, now());
      await notifyChange(tx as unknown as Database);
      return { saved: { ok: true, id, message: "" } as Saved, dropped };
    });
    if (result.saved.ok) await notifyChange();
    // The old file goes after its row: a page rendered meanwhile still finds it.
    await removeDiskCopies(storage, result.dropped);
    return result.saved;
  }

  return {
    get: (id: string) => state(db, id),

    /** Cleans and stores one uploaded file under the enshrinee's folder; returns its key. */
    async store(id: string, bytes: Buffer, name: string): Promise<string> {
      return (await storeCleanPhoto(storage, `portraits/${id}`, bytes, name)).key;
    },

    /** Forgets a stored file of an upload that did not complete. */
    discard: (key: string) => storage.remove(key).catch(() => undefined),

    /** Makes a stored file the enshrinee's portrait (replacing any earlier one). */
    async set(actor: Actor, id: string, key: string, alt: string): Promise<Saved> {
      try {
        const saved = await write(actor, id, "enshrinee.portrait.set", (name) => `Uploaded a portrait of ${name}`, async (tx) => {
          await storage.persist(tx, [key]);
          return { portrait: key, portraitAlt: alt };
        });
        if (!saved.ok) await storage.remove(key).catch(() => undefined);
        return saved.ok ? { ...saved, message: "Portrait saved." } : saved;
      } catch (error) {
        await storage.remove(key).catch(() => undefined);
        throw error;
      }
    },

    /** Makes an image of the media library (decision 061), already stored and shared, the enshrinee's portrait. */
    async use(actor: Actor, id: string, key: string, alt: string): Promise<Saved> {
      const saved = await write(actor, id, "enshrinee.portrait.set", (name) => `Chose a portrait of ${name} from the media library`, async () => ({ portrait: key, portraitAlt: alt }));
      return saved.ok ? { ...saved, message: "Portrait saved." } : saved;
    },

    /** Changes the portrait's description. */
    async describe(actor: Actor, id: string, alt: string): Promise<Saved> {
      const current = await state(db, id);
      if (current && !current.portrait) return { ok: false, message: "There is no portrait to describe: upload one first." };
      const saved = await write(actor, id, "enshrinee.portrait.describe", (name) => `Described the portrait of ${name}`, async (_tx, before) => ({ portrait: before.portrait, portraitAlt: alt }));
      return saved.ok ? { ...saved, message: "Portrait description saved." } : saved;
    },

    /** Removes the portrait (its file goes after the row). */
    async remove(actor: Actor, id: string): Promise<Saved> {
      const saved = await write(actor, id, "enshrinee.portrait.remove", (name) => `Removed the portrait of ${name}`, async () => ({ portrait: null, portraitAlt: null }));
      return saved.ok ? { ...saved, message: "Portrait removed." } : saved;
    },
  };
}

