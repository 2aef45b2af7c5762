/**
 * Drafts and scheduled publishing (decision 032): what staff choose for an exhibit, an
 * enshrinee or a banner slide, and how the console shows it. A record's one stored value is
 * `publish_at`: null is a draft, a time is when it appears for visitors and members (a past time:
 * published). The rule the public readers use lives in server/catalog/publication.ts.
 */
import * as z from "zod/mini";
import { clockTimeIn, dayAndHourIn, instantIn, isCalendarDay } from "./calendar";

export const PUBLICATION_STATES = ["draft", "scheduled", "published"] as const;
export type PublicationState = (typeof PUBLICATION_STATES)[number];

/** What staff chose: a draft, a museum-time date and time (to the minute), or published now (or still). */
export type Publication = { state: "draft" } | { state: "scheduled"; at: Date } | { state: "published" };

export const PUBLICATION_MESSAGES = {
  state: "Please choose Draft, Scheduled or Published.",
  date: "Please enter the date to publish on, as YYYY-MM-DD.",
  time: "Please enter the time to publish at, as HH:MM (24-hour clock).",
  past: "That time has passed: choose a later date or time, or choose Published.",
} as const;

/** The state of a stored `publish_at` at `now`. */
export function publicationStateOf(publishAt: Date | null, now: Date): PublicationState {
  if (!publishAt) return "draft";
  return publishAt.getTime() > now.getTime() ? "scheduled" : "published";
}

/** "Draft", "Scheduled for 2026-12-01 09:00 EST" or "Published", as the console lists show it. */
export function publicationLabel(publishAt: Date | null, now: Date, timeZone: string): string {
  const state = publicationStateOf(publishAt, now);
  if (state === "draft") return "Draft";
  if (state === "scheduled") return `Scheduled for ${clockTimeIn(timeZone, publishAt!)}`;
  return "Published";
}

const twoDigits = (n: number) => String(n).padStart(2, "0");

/** The form's initial values for a stored `publish_at` (a new record starts as Published, as before drafts existed). */
export function publicationFields(publishAt: Date | null | undefined, now: Date, timeZone: string): { state: PublicationState; date: string; time: string } {
  const state = publishAt === undefined ? "published" : publicationStateOf(publishAt, now);
  const tomorrow = dayAndHourIn(timeZone, new Date(now.getTime() + 86_400_000));
  const at = state === "scheduled" ? dayAndHourIn(timeZone, publishAt!) : { day: tomorrow.day, hour: 9, minute: 0 };
  return { state, date: at.day, time: `${twoDigits(at.hour)}:${twoDigits(at.minute)}` };
}

const formSchema = z.object({
  publication: z.enum(PUBLICATION_STATES),
  publishDate: z.optional(z.string().check(z.trim())),
  publishTime: z.optional(z.string().check(z.trim())),
});

/** "09:30" or "9:30" (a 24-hour clock, as a time input sends it) as hour and minute; a bare hour ("9", forms before minutes) too. */
function timeOfDay(value: string): { hour: number; minute: number } | null {
  const m = /^(\d{1,2})(?::(\d{2}))?$/.exec(value);
  if (!m) return null;
  const hour = Number(m[1]);
  const minute = Number(m[2] ?? "0");
  return hour <= 23 && minute <= 59 ? { hour, minute } : null;
}

/**
 * The publication a form sent (fields `publication`, `publishDate`, `publishTime`, HH:MM on the
 * museum's clock; `publishHour`, a bare hour, from forms before minutes), or the message for each
 * field that is wrong. A form without the fields (a
 * client written before drafts existed) leaves the publication as it is: `value` undefined.
 */
export function publicationFromForm(
  form: { get(name: string): unknown },
  timeZone: string,
  now: Date,
): { ok: true; value: Publication | undefined } | { ok: false; errors: Record<string, string> } {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : undefined;
  };
  if (form.get("publication") === null) return { ok: true, value: undefined };
  const parsed = formSchema.safeParse({ publication: text("publication"), publishDate: text("publishDate"), publishTime: text("publishTime") ?? text("publishHour") });
  if (!parsed.success) return { ok: false, errors: { publication: PUBLICATION_MESSAGES.state } };
  const { publication, publishDate = "", publishTime = "" } = parsed.data;
  if (publication !== "scheduled") return { ok: true, value: { state: publication } };
  const errors: Record<string, string> = {};
  if (!isCalendarDay(publishDate)) errors.publishDate = PUBLICATION_MESSAGES.date;
  const time = timeOfDay(publishTime);
  if (!time) errors.publishTime = PUBLICATION_MESSAGES.time;
  if (Object.keys(errors).length || !time) return { ok: false, errors };
  const at = instantIn(publishDate, time.hour, timeZone, time.minute);
  if (at.getTime() <= now.getTime()) return { ok: false, errors: { publishDate: PUBLICATION_MESSAGES.past } };
  return { ok: true, value: { state: "scheduled", at } };
}
