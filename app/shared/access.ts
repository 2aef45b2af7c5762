/**
 * The one access rule of the site (spec section 4): a member is a signed-in account whose
 * ticket is valid today or later. Dates are calendar days in the museum's time zone.
 */

/** Calendar date (YYYY-MM-DD) of `now` in `timeZone`. */
export function calendarDateIn(timeZone: string, now: Date): string {
  let format = dateFormats.get(timeZone);
  if (!format) {
    // en-CA formats as YYYY-MM-DD.
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    dateFormats.set(timeZone, format);
  }
  return format.format(now);
}

/**
 * Date and time with the zone's short name ("2026-11-25 20:15 EST", 24-hour; with seconds,
 * "2026-11-25 20:15:09 EST") of `now` in `timeZone`: how the staff console shows an instant, on
 * the museum's clock.
 */
export function clockTimeIn(timeZone: string, now: Date, { seconds = false } = {}): string {
  const key = `${timeZone} ${seconds}`;
  let format = timeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", ...(seconds ? { second: "2-digit" } : {}), hourCycle: "h23", timeZoneName: "short" });
    timeFormats.set(key, format);
  }
  const part = Object.fromEntries(format.formatToParts(now).map((p) => [p.type, p.value]));
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}${seconds ? `:${part.second}` : ""} ${part.timeZoneName}`;
}

/**
 * Whether `value` is a real calendar day written YYYY-MM-DD (not 2026-02-30, nor year 0000, which
 * PostgreSQL refuses).
 */
export function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || value.startsWith("0000")) return false;
  const t = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === value;
}

/** Building a formatter costs far more than using one; there is one time zone per site. */
const timeFormats = new Map<string, Intl.DateTimeFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** Whole days from `today` to `validThrough` (both YYYY-MM-DD); negative once expired. */
export function daysUntil(validThrough: string, today: string): number {
  const ms = Date.parse(`${validThrough}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`);
  return Math.round(ms / 86_400_000);
}

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
