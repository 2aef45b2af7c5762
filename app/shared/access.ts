/**
 * The one access rule of the site (spec section 4): a member is a signed-in account whose
 * ticket is valid today or later. Dates are calendar days in the museum's time zone (calendar.ts).
 */
import { daysUntil } from "./calendar";

/**
 * Valid through today or later: the one validity rule. `today` is the museum's calendar day
 * (the server's comes from its one clock, server/membership/museum-calendar.ts).
 */
export function isTicketValid(validThrough: string | null | undefined, today: string): boolean {
  return validThrough != null && daysUntil(validThrough, today) >= 0;
}

/** What every page knows about the person looking at it, decided on the server. */
export interface Viewer {
  firstName: string;
  lastName: string;
  emailAddress: string;
  validThrough: string | null;
  /** Ticket valid today or later. */
  member: boolean;
}

/** What the layout shows of the person looking: the greeting's first name and the access tier. */
export type DisplayViewer = Pick<Viewer, "firstName" | "member">;

/** Whether member-only content (photos, full texts, biographies) may be shown to `viewer`. */
export function canSeeMemberContent(viewer: Pick<Viewer, "member"> | null | undefined): boolean {
  return viewer?.member === true;
}
