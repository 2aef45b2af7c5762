/**
 * Zod schemas of the console's forms, shared by the pages and their actions, built on the
 * site's two text rules (no control characters, well-formed text, trimmed, bounded).
 */
import { z } from "zod";
import { EMAIL_MAX, EMAIL_PATTERN, NAME_MAX } from "~/shared/account-schemas";
import { multiLineText, singleLineText } from "~/shared/text-fields";
import { STAFF_ROLES } from "~/shared/console-areas";
import { EXHIBIT_ENSHRINEES_MAX, enshrineeFields, exhibitFields, mediaPath, photoDescriptionIssues, wholeNumber } from "~/shared/collection-records";
import { MAX_IMAGE_ALT } from "~/shared/images";

export const inviteSchema = z.object({
  email: singleLineText("Email address", { max: EMAIL_MAX, required: "Please enter the email address" }).regex(EMAIL_PATTERN, "Please check the email address format."),
  firstName: singleLineText("First name", { max: NAME_MAX, required: "Please enter the first name" }),
  lastName: singleLineText("Last name", { max: NAME_MAX, required: "Please enter the last name" }),
  role: z.enum(STAFF_ROLES, { message: "Please choose a role" }),
});

export const uuidSchema = z.string().uuid("Unknown record");

// ---- the collection ------------------------------------------------------------------------------

const checkbox = z
  .union([z.literal("on"), z.literal("true"), z.literal("false"), z.literal("")])
  .optional()
  .transform((v) => v === "on" || v === "true");

export const teamSchema = z.object({
  name: singleLineText("Name", { max: 100, required: "Please enter the team's name" }),
  league: singleLineText("League", { max: 100, required: "Please enter the league" }),
  logo: mediaPath("Logo"),
  headline: singleLineText("Headline", { max: 200, required: "Please enter a headline" }),
  description: multiLineText("Description", { max: 10_000, required: "Please enter a description" }),
  sortOrder: wholeNumber("Order", 0, 10_000),
});

export const categorySchema = z.object({
  categoryName: singleLineText("Name", { max: 100, required: "Please enter the category's name" }),
  sortOrder: wholeNumber("Order", 0, 10_000),
});

/** An exhibit's edit form: the record's schema (collection-records.ts) with the form's names. */
export const exhibitSchema = z
  .object({
    teamId: z.string().uuid("Please choose a team"),
    categoryId: z.string().uuid("Please choose a category"),
    title: exhibitFields.title,
    shortTitle: exhibitFields.shortTitle,
    descriptionHtml: exhibitFields.text,
    thumbnail: exhibitFields.thumbnail,
    thumbnailAlt: exhibitFields.thumbnailAlt,
    matchingPhoto: exhibitFields.matchingPhoto,
    matchingPhotoAlt: exhibitFields.matchingPhotoAlt,
    active: checkbox,
    favoriteStory: checkbox,
    year: exhibitFields.year,
    enshrineeIds: z.array(z.string().uuid("Unknown enshrinee")).max(EXHIBIT_ENSHRINEES_MAX),
  })
  .superRefine((v, ctx) => {
    for (const issue of photoDescriptionIssues(v)) ctx.addIssue({ code: "custom", path: [issue.field], message: issue.message });
  });

/** An enshrinee's edit form: the record's schema (collection-records.ts). */
export const enshrineeSchema = z.object(enshrineeFields);

export const bannerSlideSchema = z.object({
  variant: z.enum(["desktop", "mobile"], { message: "Unknown banner" }),
  // Site images visitors see: the banners/ folder or the media library's own uploads (decision 061).
  file: mediaPath("Image").refine((v) => v.startsWith("banners/") || v.startsWith("library/"), "Banner images live in the banners/ folder or the media library"),
  alt: singleLineText("Description", { max: MAX_IMAGE_ALT, required: "Please describe the slide for people who cannot see it" }),
  width: wholeNumber("Width", 1, 4000),
  height: wholeNumber("Height", 1, 4000),
});

/** A form's fields as an object, with the repeated ones as lists. */
export function formObject(form: FormData, lists: readonly string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of form.entries()) {
    if (typeof value !== "string") continue;
    if (lists.includes(key)) out[key] = [...((out[key] as string[] | undefined) ?? []), value];
    else out[key] = value;
  }
  for (const key of lists) out[key] ??= [];
  return out;
}
