/**
 * Who may open which part of the staff console (decision 015). Browser-safe: the layout shows
 * only the links a role may follow, and every loader and action checks the same table on the
 * server before it reads or writes anything.
 */
export const STAFF_ROLES = ["curator", "admin"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const CONSOLE_AREAS = {
  /** The console's home page. */
  dashboard: ["curator", "admin"],
  /** Teams, categories, exhibits, photos, enshrinees. */
  collection: ["curator", "admin"],
  /** The home banner's desktop and mobile slides. */
  banner: ["curator", "admin"],
  /** Contact messages. */
  inbox: ["curator", "admin"],
  /** The audit log (a curator sees the entries of the areas a curator may open). */
  audit: ["curator", "admin"],
  /** Members, payments, refunds, complimentary tickets and their export; the payments list (decision 062). */
  members: ["admin"],
  /** Gift tickets and their refunds (personal data of buyers and recipients). */
  gifts: ["admin"],
  /** Newsletter subscribers and their export. */
  subscribers: ["admin"],
  /** Staff accounts: invitations, roles, deactivation. */
  staff: ["admin"],
} as const satisfies Record<string, readonly StaffRole[]>;

export type ConsoleArea = keyof typeof CONSOLE_AREAS;

/**
 * The role an account's sessions act with (decision 049): its own while active; a
 * deactivated staff account that is also a member's acts as a member (her access and ticket
 * stay, only the console closes); one that is not a member's has no session at all (null).
 */
export function actingRole<R extends string>(account: { role: R; deactivatedAt: Date | null; memberAccount: boolean }): R | "member" | null {
  if (account.role === "member" || !account.deactivatedAt) return account.role;
  return account.memberAccount ? "member" : null;
}


export function mayOpen(role: string | null | undefined, area: ConsoleArea): boolean {
  return (CONSOLE_AREAS[area] as readonly string[]).includes(role ?? "");
}

/** The audit log's entity types, and which console area each belongs to. */
export const AUDIT_ENTITY_AREAS = {
  team: "collection",
  category: "collection",
  exhibit: "collection",
  enshrinee: "collection",
  banner: "banner",
  /** Images of the media library (decision 061): their descriptions, uploads and deletions. */
  media: "collection",
  contact_message: "inbox",
  member: "members",
  payment: "members",
  gift: "gifts",
  subscriber: "subscribers",
  staff: "staff",
} as const satisfies Record<string, ConsoleArea>;

export type AuditEntityType = keyof typeof AUDIT_ENTITY_AREAS;

/** The entity types whose audit entries `role` may read. */
export function auditEntityTypesFor(role: string): AuditEntityType[] {
  return (Object.keys(AUDIT_ENTITY_AREAS) as AuditEntityType[]).filter((t) => mayOpen(role, AUDIT_ENTITY_AREAS[t]));
}

/** Sensitive actions ask for the password again when it was entered longer ago than this. */
export const REAUTH_MAX_AGE_MS = 10 * 60_000;

/** How many minutes before that the console warns, with "Stay signed in". */
export const STAFF_IDLE_WARNING_MINUTES = 5;
