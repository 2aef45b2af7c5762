/**
 * The staff console's services (decision 015), built once per process next to the others and
 * handed to the console's route modules through the load context.
 */
import type { Database } from "../db/client";
import { createAuditLog } from "./audit-log";
import { createCollectionAdmin } from "./collection-service";
import { createDiskMediaStorage } from "../media/media-storage";
import { createPhotoAdmin } from "./photo-service";
import { createExhibitPreview } from "./exhibit-preview";
import { createStaffService } from "./staff-service";

export interface AdminDeps {
  db: Database;
  publicUrl: string;
  now?: () => Date;
  onEnqueued?: () => void;
  /** The change feed's notify (server/catalog/change-feed.ts): every instance's caches forget on commit. */
  notifyCollectionChange: (tx?: Database) => Promise<void>;
  /** DATA_DIR/media: where uploaded originals are stored (the image routes render from it). */
  mediaDir: string;
}

export function createAdminServices(deps: AdminDeps) {
  return {
    audit: createAuditLog(deps.db),
    staff: createStaffService(deps),
    collection: createCollectionAdmin({ db: deps.db, now: deps.now, notifyChange: deps.notifyCollectionChange }),
    previewExhibit: createExhibitPreview(deps.db),
    photos: createPhotoAdmin({ db: deps.db, storage: createDiskMediaStorage(deps.mediaDir), now: deps.now, notifyChange: deps.notifyCollectionChange }),
  };
}

export type AdminServices = ReturnType<typeof createAdminServices>;
