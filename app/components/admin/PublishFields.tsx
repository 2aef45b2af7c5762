/**
 * The publication of an exhibit, an enshrinee or a banner slide (decision 032): Draft, Scheduled
 * for a date and time (to the minute) on the museum's clock, or Published. Plain radio buttons and
 * inputs: the form works without JavaScript; the date and time are sent whatever is chosen and
 * read only for Scheduled. `prefix` keeps the ids unique when a page has several forms (the banner).
 */
import { PUBLICATION_STATES, type PublicationState } from "~/shared/publication";

export interface PublishFieldsValue {
  state: PublicationState;
  date: string;
  /** HH:MM, museum time. */
  time: string;
  /** What is stored now, e.g. "Scheduled for 2026-12-01 09:00 EST"; null for a new record. */
  label: string | null;
  timeZone: string;
}

const STATE_LABELS: Record<PublicationState, string> = { draft: "Draft (only staff see it)", scheduled: "Scheduled", published: "Published" };

export function PublishFields({
  initial,
  errors = {},
  typed = {},
  prefix = "",
}: {
  initial: PublishFieldsValue;
  errors?: Record<string, string | undefined>;
  typed?: Record<string, string | undefined>;
  prefix?: string;
}) {
  const id = (name: string) => `${prefix}${name}`;
  const state = (PUBLICATION_STATES as readonly string[]).includes(typed.publication ?? "") ? (typed.publication as PublicationState) : initial.state;
  const dateError = errors.publishDate;
  const timeError = errors.publishTime;
  return (
    <fieldset className="space-y-2 rounded border border-stone-300 p-3" aria-describedby={id("publication-now")}>
      <legend className="px-1 font-semibold">Publication</legend>
      {initial.label ? (
        <p id={id("publication-now")} className="text-sm" data-testid="publication-status">
          Now: {initial.label}
        </p>
      ) : null}
      {errors.publication ? <p className="text-sm font-semibold text-red-800">{errors.publication}</p> : null}
      <div className="flex flex-wrap gap-4">
        {PUBLICATION_STATES.map((s) => (
          <label key={s} className="flex items-center gap-2">
            <input type="radio" name="publication" value={s} defaultChecked={state === s} /> {STATE_LABELS[s]}
          </label>
        ))}
      </div>
      <div className="grid gap-2 sm:grid-cols-2">
        <div>
          <label htmlFor={id("publishDate")} className="block text-sm font-semibold">
            Publish on (date, for Scheduled)
          </label>
          <input
            id={id("publishDate")}
            name="publishDate"
            type="date"
            defaultValue={typed.publishDate ?? initial.date}
            aria-invalid={dateError ? true : undefined}
            aria-describedby={dateError ? id("publishDate-error") : undefined}
            className="w-full rounded border border-stone-500 bg-white px-3 py-2"
          />
          {dateError ? (
            <p id={id("publishDate-error")} className="text-sm font-semibold text-red-800">
              {dateError}
            </p>
          ) : null}
        </div>
        <div>
          <label htmlFor={id("publishTime")} className="block text-sm font-semibold">
            At (time, museum time: {initial.timeZone})
          </label>
          <input
            id={id("publishTime")}
            name="publishTime"
            type="time"
            step={60}
            defaultValue={typed.publishTime ?? initial.time}
            aria-invalid={timeError ? true : undefined}
            aria-describedby={timeError ? id("publishTime-error") : undefined}
            className="w-full rounded border border-stone-500 bg-white px-3 py-2"
          />
          {timeError ? (
            <p id={id("publishTime-error")} className="text-sm font-semibold text-red-800">
              {timeError}
            </p>
          ) : null}
        </div>
      </div>
    </fieldset>
  );
}
