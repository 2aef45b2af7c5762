/**
 * The museum's clock: the one "today" of the server. Built once from MUSEUM_TIME_ZONE and the
 * injected clock (a fixed one in tests) and handed to every service that asks what day it is,
 * so a ticket's last day, a reminder's due day and a gift's delivery day are the same day.
 */
import { calendarDateIn, startOfDayIn } from "../../app/shared/calendar";

export interface MuseumCalendar {
  timeZone: string;
  /** The injected clock. */
  now(): Date;
  /** Today's calendar day (YYYY-MM-DD) in the museum's time zone. */
  today(): string;
  /** The calendar day of an instant in the museum's time zone. */
  dayOf(at: Date): string;
  /** The instant a calendar day starts (museum midnight). */
  startOf(day: string): Date;
}

export function createMuseumCalendar(timeZone: string, now: () => Date = () => new Date()): MuseumCalendar {
  return {
    timeZone,
    now,
    today: () => calendarDateIn(timeZone, now()),
    dayOf: (at) => calendarDateIn(timeZone, at),
    startOf: (day) => startOfDayIn(day, timeZone),
  };
}
