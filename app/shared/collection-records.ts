/**
 * One schema per collection record (decision 051): the rules of an exhibit's and an
 * enshrinee's fields, with their limits and messages, written once. The console's forms
 * (app/routes/admin/console-schemas.ts) and the CSV import (server/catalog/collection-import.ts)
 * are adapters around these: they name the fields their own way (a form's `shortTitle`, a
 * file's `short_title`; a team by id or by name) and apply the same rules, so a record the
 * console saves is one the import takes, and the other way round.
 */
import { z } from "zod";
import { multiLineText, singleLineText } from "./text-fields";

/** A whole number between `min` and `max`, with the field's name in each message. */
export const wholeNumber = (field: string, min: number, max: number) =>
  z.coerce.number({ message: `${field} must be a number` }).int(`${field} must be a whole number`).min(min, `${field} must be at least ${min}`).max(max, `${field} must be at most ${max}`);

/** A file in the media folder: letters, digits, -, _, . and / (no `..`, no leading slash). */
export const mediaPath = (field: string) =>
  singleLineText(field, { max: 300 }).refine((v) => v === "" || (/^[A-Za-z0-9][A-Za-z0-9/_.-]*$/.test(v) && !v.includes("..")), `${field} must be a file of the media folder, like exhibits/name/photo-1.jpg`);

/** The longest text of a record (an exhibit's text, a biography), plain or formatted. */
export const RECORD_TEXT_MAX = 50_000;

/** An exhibit's own fields (its team, category and enshrinees are named differently by each adapter). */
export const exhibitFields = {
  title: singleLineText("Title", { max: 200, required: "Please enter a title" }),
  shortTitle: singleLineText("Short title", { max: 80, required: "Please enter a short title" }),
  year: wholeNumber("Year", 1850, 2100),
  /** The text, formatted (HTML, sanitized when saved) or plain. */
  text: multiLineText("Text", { max: RECORD_TEXT_MAX }),
  thumbnail: mediaPath("Thumbnail"),
  thumbnailAlt: singleLineText("Thumbnail description", { max: 300 }),
  matchingPhoto: mediaPath("Matching photo"),
  matchingPhotoAlt: singleLineText("Matching photo description", { max: 300 }),
};

/** How many enshrinees one exhibit may name. */
export const EXHIBIT_ENSHRINEES_MAX = 500;

export interface ExhibitPhotos {
  thumbnail: string;
  thumbnailAlt: string;
  matchingPhoto: string;
  matchingPhotoAlt: string;
}

/** The rule across an exhibit's fields: a photo it shows is described for people who cannot see it. */
export function photoDescriptionIssues(v: ExhibitPhotos): { field: "thumbnailAlt" | "matchingPhotoAlt"; message: string }[] {
  const issues: { field: "thumbnailAlt" | "matchingPhotoAlt"; message: string }[] = [];
  if (v.thumbnail && !v.thumbnailAlt) issues.push({ field: "thumbnailAlt", message: "Please describe the thumbnail for people who cannot see it" });
  if (v.matchingPhoto && !v.matchingPhotoAlt) issues.push({ field: "matchingPhotoAlt", message: "Please describe the matching photo for people who cannot see it" });
  return issues;
}

/** An enshrinee's fields. */
export const enshrineeFields = {
  fullName: singleLineText("Full name", { max: 200, required: "Please enter the full name" }),
  firstName: singleLineText("First name", { max: 100, required: "Please enter the first name" }),
  lastName: singleLineText("Last name", { max: 100, required: "Please enter the last name" }),
  /** Rich text like an exhibit's (sanitized when saved), or plain paragraphs. */
  biography: multiLineText("Biography", { max: RECORD_TEXT_MAX }),
};
