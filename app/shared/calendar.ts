/**
 * The museum's calendar: calendar days (YYYY-MM-DD) in the museum's time zone, the one day
 * arithmetic, and how the console shows an instant on the museum's clock. Pure functions shared
 * by the server and the browser; the server's "today" comes from one injected clock
 * (server/membership/museum-calendar.ts).
 */

/** Building a formatter costs far more than using one; there is one time zone per site. */
const timeFormats = new Map<string, Intl.DateTimeFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const offsetFormats = new Map<string, Intl.DateTimeFormat>();

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

/** The instant a calendar day starts in `timeZone` (its local midnight). */
export function startOfDayIn(date: string, timeZone: string): Date {
  return instantIn(date, 0, timeZone);
}

/** The instant `date` (YYYY-MM-DD) at `hour`:`minute` on the clocks of `timeZone`. */
export function instantIn(date: string, hour: number, timeZone: string, minute = 0): Date {
  const utcTime = Date.parse(`${date}T${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}:00Z`);
  const offsetAt = (t: number) => {
    let format = offsetFormats.get(timeZone);
    if (!format) {
      format = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" });
      offsetFormats.set(timeZone, format);
    }
    const name = format.formatToParts(new Date(t)).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
    const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
    return m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000 : 0;
  };
  const guess = utcTime - offsetAt(utcTime);
  return new Date(utcTime - offsetAt(guess));
}

/** The calendar day (YYYY-MM-DD), the hour (0-23) and the minute of an instant on the clocks of `timeZone`. */
export function dayAndHourIn(timeZone: string, at: Date): { day: string; hour: number; minute: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return { day: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour), minute: Number(parts.minute) };
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

/** The calendar day `days` after `date` (both YYYY-MM-DD; negative goes back). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Whole days from `today` to `validThrough` (both YYYY-MM-DD); negative once expired. */
export function daysUntil(validThrough: string, today: string): number {
  const ms = Date.parse(`${validThrough}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`);
  return Math.round(ms / 86_400_000);
}
