/**
 * The staff console's services (decision 015), built once per process next to the others and
 * handed to the console's route modules through the load context.
 */
import type { Database } from "../db/client";
import { createAuditLog } from "./audit-log";
import { createStaffService } from "./staff-service";

export interface AdminDeps {
  db: Database;
  publicUrl: string;
  now?: () => Date;
  onEnqueued?: () => void;
}

export function createAdminServices(deps: AdminDeps) {
  return {
    audit: createAuditLog(deps.db),
    staff: createStaffService(deps),
  };
}

export type AdminServices = ReturnType<typeof createAdminServices>;
