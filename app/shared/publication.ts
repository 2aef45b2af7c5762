/**
 * Drafts and scheduled publishing (issue 24, decision 032): what staff choose for an exhibit, an
 * enshrinee or a banner slide, and how the console shows it. A record's one stored value is
 * `publish_at`: null is a draft, a time is when it appears for visitors and members (a past time:
 * published). The rule the public readers use lives in server/catalog/publication.ts.
 */
import * as z from "zod/mini";
import { clockTimeIn, dayAndHourIn, instantIn, isCalendarDay } from "./calendar";

export const PUBLICATION_STATES = ["draft", "scheduled", "published"] as const;
export type PublicationState = (typeof PUBLICATION_STATES)[number];

/** What staff chose: a draft, a museum-time date and hour, or published now (or still). */
export type Publication = { state: "draft" } | { state: "scheduled"; at: Date } | { state: "published" };

export const PUBLICATION_MESSAGES = {
  state: "Please choose Draft, Scheduled or Published.",
  date: "Please enter the date to publish on, as YYYY-MM-DD.",
  hour: "Please choose the hour to publish at.",
  past: "That time has passed: choose a later date or hour, or choose Published.",
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

/** The form's initial values for a stored `publish_at` (a new record starts as Published, as before drafts existed). */
export function publicationFields(publishAt: Date | null | undefined, now: Date, timeZone: string): { state: PublicationState; date: string; hour: number } {
  const state = publishAt === undefined ? "published" : publicationStateOf(publishAt, now);
  const tomorrow = dayAndHourIn(timeZone, new Date(now.getTime() + 86_400_000));
  const at = state === "scheduled" ? dayAndHourIn(timeZone, publishAt!) : { day: tomorrow.day, hour: 9 };
  return { state, date: at.day, hour: at.hour };
}

const formSchema = z.object({
  publication: z.enum(PUBLICATION_STATES),
  publishDate: z.optional(z.string().check(z.trim())),
  publishHour: z.optional(z.string().check(z.trim())),
});

/**
 * The publication a form sent (fields `publication`, `publishDate`, `publishHour`, the hour on the
 * museum's clock), or the message for each field that is wrong. A form without the fields (a
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
  const parsed = formSchema.safeParse({ publication: text("publication"), publishDate: text("publishDate"), publishHour: text("publishHour") });
  if (!parsed.success) return { ok: false, errors: { publication: PUBLICATION_MESSAGES.state } };
  const { publication, publishDate = "", publishHour = "" } = parsed.data;
  if (publication !== "scheduled") return { ok: true, value: { state: publication } };
  const errors: Record<string, string> = {};
  if (!isCalendarDay(publishDate)) errors.publishDate = PUBLICATION_MESSAGES.date;
  const hour = /^\d{1,2}$/.test(publishHour) ? Number(publishHour) : NaN;
  if (!(hour >= 0 && hour <= 23)) errors.publishHour = PUBLICATION_MESSAGES.hour;
  if (Object.keys(errors).length) return { ok: false, errors };
  const at = instantIn(publishDate, hour, timeZone);
  if (at.getTime() <= now.getTime()) return { ok: false, errors: { publishDate: PUBLICATION_MESSAGES.past } };
  return { ok: true, value: { state: "scheduled", at } };
}
