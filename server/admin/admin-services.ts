/**
 * The staff console's services (decision 015), built once per process next to the others and
 * handed to the console's route modules through the load context. The console's own parts live
 * here (audit log reading, staff, CSV exports, preview, the member list); its writes to the
 * collection, photos, complimentary tickets and refunds, the contact inbox and the newsletter's
 * subscribers are the domain modules' (server/catalog, server/membership: decision 023;
 * server/contact/inbox.ts, server/newsletter/subscriber-admin.ts: decision 035), wired in here.
 */
import type { Database } from "../db/client";
import { createAuditLog } from "./audit-log";
import { createCollectionWrites } from "../catalog/collection-writes";
import { createCollectionImport } from "../catalog/collection-import";
import { createBulkActions } from "../catalog/bulk-actions";
import { createMediaStorage } from "../media/media-storage";
import type { MediaObjects } from "../media/media-objects";
import type { CollectionTrash } from "../catalog/collection-trash";
import { createPhotoWrites } from "../catalog/photo-writes";
import { createMediaLibrary } from "../media/media-library";
import { createRecordVersions } from "../catalog/record-versions";
import { createPortraitWrites } from "../catalog/portrait-writes";
import { createPreview } from "./preview";
import { recordAudit, type Actor } from "../audit/audit-trail";
import { csvResponse, csvStream } from "./csv";
import { createInbox } from "../contact/inbox";
import { createMemberAdmin } from "./member-service";
import type { Membership } from "../membership/membership-service";
import { createSubscriberAdmin } from "../newsletter/subscriber-admin";
import { createOverview } from "./overview-service";
import { createPaymentsList, type PaymentsListDeps } from "./payments-list-service";
import type { VisitPages } from "../visits/visit-pages";
import type { AuditEntityType } from "../../app/shared/console-areas";
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
  /** With DATABASE_URL: the originals in PostgreSQL, where every instance reads them (decision 024). */
  mediaObjects?: MediaObjects;
  /** The Trash page: deleted collection records and their restore (decision 031). */
  trash: CollectionTrash;
  timeZone: string;
  /** The pages visits are counted for: the Overview's most viewed records (decision 060). */
  visitPages?: VisitPages;
  /** Complimentary tickets and refunds are the membership module's (decision 023). */
  membership: Membership;
  /** The museum's address, replies' Reply-To. */
  museumEmail: string;
  /** The site's own reset request (accounts service): a link by email through the outbox. */
  requestPasswordReset: (email: string) => Promise<void>;
  /** The gift service's state of a gift, for the payments list (decision 062). */
  giftStateOf: PaymentsListDeps["giftStateOf"];
  /** Whether Mailchimp is configured (the Subscribers page says "kept locally" otherwise). */
  mailchimp?: boolean;
}

export function createAdminServices(deps: AdminDeps) {
  const now = deps.now ?? (() => new Date());
  const payments = createPaymentsList({ db: deps.db, timeZone: deps.timeZone, now: deps.now, giftStateOf: deps.giftStateOf });
  return {
    audit: createAuditLog(deps.db, deps.timeZone),
    staff: createStaffService(deps),
    collection: createCollectionWrites({ db: deps.db, now: deps.now, notifyChange: deps.notifyCollectionChange, storage: createMediaStorage(deps.mediaDir, deps.mediaObjects) }),
    trash: deps.trash,
    /** CSV export and import of exhibits and enshrinees (decision 034). */
    collectionCsv: createCollectionImport({ db: deps.db, now: deps.now, notifyChange: deps.notifyCollectionChange, storage: createMediaStorage(deps.mediaDir, deps.mediaObjects) }),
    /** Bulk actions on the exhibit and enshrinee lists' chosen rows (decision 034). */
    bulk: createBulkActions({ db: deps.db, now: deps.now, notifyChange: deps.notifyCollectionChange, restoreFromTrash: (actor, entryId) => deps.trash.restore(actor, entryId) }),
    preview: createPreview(deps.db),
    overview: createOverview({ db: deps.db, now: deps.now, timeZone: deps.timeZone, visitPages: deps.visitPages, paymentsList: payments }),
    /** Every payment, refund and gift, its totals and its CSV (decision 062). */
    payments,
    members: createMemberAdmin({ db: deps.db, membership: deps.membership, now: deps.now, requestPasswordReset: deps.requestPasswordReset }),
    inbox: createInbox({ db: deps.db, museumEmail: deps.museumEmail, now: deps.now, onEnqueued: deps.onEnqueued }),
    subscribers: createSubscriberAdmin({ db: deps.db, now: deps.now, onEnqueued: deps.onEnqueued, mailchimp: deps.mailchimp }),
    /** CSV exports of personal data: each one audited, the rows streamed. */
    exports: {
      record: (actor: Actor, entityType: AuditEntityType, summary: string) => recordAudit(deps.db, actor, { action: "export", entityType, entityId: null, summary }, now()),
      csv: <Row>(filename: string, header: readonly string[], batches: AsyncIterable<Row[]>, toCells: (row: Row) => unknown[]) => csvResponse(filename, csvStream(header, batches, toCells)),
    },
    /** Versions of teams, categories, exhibits and enshrinees, read from the audit log (decision 030). */
    versions: createRecordVersions({ db: deps.db, now: deps.now, timeZone: deps.timeZone, notifyChange: deps.notifyCollectionChange }),
    photos: createPhotoWrites({ db: deps.db, storage: createMediaStorage(deps.mediaDir, deps.mediaObjects), now: deps.now, notifyChange: deps.notifyCollectionChange }),
    /** The media library (decision 061): every stored image, its description and where it is used. */
    media: createMediaLibrary({ db: deps.db, storage: createMediaStorage(deps.mediaDir, deps.mediaObjects), mediaDir: deps.mediaDir, objects: deps.mediaObjects, now: deps.now }),
    /** Enshrinee portraits (decision 033): cleaned like exhibit photos. */
    portraits: createPortraitWrites({ db: deps.db, storage: createMediaStorage(deps.mediaDir, deps.mediaObjects), now: deps.now, notifyChange: deps.notifyCollectionChange }),
  };
}

