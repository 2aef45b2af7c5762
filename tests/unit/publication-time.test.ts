/**
 * Scheduling to the minute: the status fields' time is read as HH:MM on the
 * museum's clock, across a daylight-saving change too; a bare hour from an older form still works;
 * a wrong time or a time past is refused with its field's message.
 */
import { describe, expect, it } from "vitest";
import { PUBLICATION_MESSAGES, publicationFields, publicationFromForm } from "../../app/shared/publication";

const ZONE = "America/New_York";
const now = new Date("2026-11-28T15:00:00Z");
const form = (fields: Record<string, string>) => new Map(Object.entries(fields));

describe("publication time", () => {
  it("reads a date and a time to the minute on the museum's clock", () => {
    expect(publicationFromForm(form({ publication: "scheduled", publishDate: "2026-12-01", publishTime: "09:45" }), ZONE, now)).toEqual({ ok: true, value: { state: "scheduled", at: new Date("2026-12-01T14:45:00Z") } });
    // Summer time: four hours behind UTC.
    expect(publicationFromForm(form({ publication: "scheduled", publishDate: "2027-07-04", publishTime: "20:05" }), ZONE, now)).toEqual({ ok: true, value: { state: "scheduled", at: new Date("2027-07-05T00:05:00Z") } });
  });

  it("still takes a bare hour from a form written before minutes", () => {
    expect(publicationFromForm(form({ publication: "scheduled", publishDate: "2026-12-01", publishHour: "9" }), ZONE, now)).toEqual({ ok: true, value: { state: "scheduled", at: new Date("2026-12-01T14:00:00Z") } });
  });

  it("refuses a time that is not one, and a minute already past", () => {
    for (const publishTime of ["", "24:00", "9:60", "nine", "09:30:00"]) {
      expect(publicationFromForm(form({ publication: "scheduled", publishDate: "2026-12-01", publishTime }), ZONE, now)).toEqual({ ok: false, errors: { publishTime: PUBLICATION_MESSAGES.time } });
    }
    // 09:59 museum time is 14:59 UTC: a minute before now.
    expect(publicationFromForm(form({ publication: "scheduled", publishDate: "2026-11-28", publishTime: "09:59" }), ZONE, now)).toEqual({ ok: false, errors: { publishDate: PUBLICATION_MESSAGES.past } });
    expect(publicationFromForm(form({ publication: "scheduled", publishDate: "2026-11-28", publishTime: "10:01" }), ZONE, now)).toMatchObject({ ok: true });
  });

  it("shows a scheduled record's stored minute in its fields", () => {
    expect(publicationFields(new Date("2026-12-01T14:45:00Z"), now, ZONE)).toEqual({ state: "scheduled", date: "2026-12-01", time: "09:45" });
    expect(publicationFields(undefined, now, ZONE)).toEqual({ state: "published", date: "2026-11-29", time: "09:00" });
  });
});
