/**
 * Zod schemas of the console's forms, shared by the pages and their actions, built on the
 * site's two text rules (no control characters, well-formed text, trimmed, bounded).
 */
import { z } from "zod";
import { EMAIL_MAX, EMAIL_PATTERN, NAME_MAX } from "~/shared/account-schemas";
import { multiLineText, singleLineText } from "~/shared/text-fields";
import { STAFF_ROLES } from "~/shared/console-areas";

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
const wholeNumber = (field: string, min: number, max: number) =>
  z.coerce.number({ message: `${field} must be a number` }).int(`${field} must be a whole number`).min(min, `${field} must be at least ${min}`).max(max, `${field} must be at most ${max}`);
/** A file in the media folder: letters, digits, -, _, . and / (no `..`, no leading slash). */
export const mediaPath = (field: string) =>
  singleLineText(field, { max: 300 }).refine((v) => v === "" || (/^[A-Za-z0-9][A-Za-z0-9/_.-]*$/.test(v) && !v.includes("..")), `${field} must be a file of the media folder, like exhibits/name/photo-1.jpg`);

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

export const exhibitSchema = z
  .object({
    teamId: z.string().uuid("Please choose a team"),
    categoryId: z.string().uuid("Please choose a category"),
    title: singleLineText("Title", { max: 200, required: "Please enter a title" }),
    shortTitle: singleLineText("Short title", { max: 80, required: "Please enter a short title" }),
    descriptionHtml: multiLineText("Text", { max: 50_000 }),
    thumbnail: mediaPath("Thumbnail"),
    thumbnailAlt: singleLineText("Thumbnail description", { max: 300 }),
    matchingPhoto: mediaPath("Matching photo"),
    matchingPhotoAlt: singleLineText("Matching photo description", { max: 300 }),
    active: checkbox,
    favoriteStory: checkbox,
    year: wholeNumber("Year", 1850, 2100),
    enshrineeIds: z.array(z.string().uuid("Unknown enshrinee")).max(500),
  })
  .superRefine((v, ctx) => {
    if (v.thumbnail && !v.thumbnailAlt) ctx.addIssue({ code: "custom", path: ["thumbnailAlt"], message: "Please describe the thumbnail for people who cannot see it" });
    if (v.matchingPhoto && !v.matchingPhotoAlt) ctx.addIssue({ code: "custom", path: ["matchingPhotoAlt"], message: "Please describe the matching photo for people who cannot see it" });
  });

export const enshrineeSchema = z.object({
  fullName: singleLineText("Full name", { max: 200, required: "Please enter the full name" }),
  firstName: singleLineText("First name", { max: 100, required: "Please enter the first name" }),
  lastName: singleLineText("Last name", { max: 100, required: "Please enter the last name" }),
  /** Rich text like an exhibit's (sanitized when saved), or plain paragraphs from the bare textarea. */
  biography: multiLineText("Biography", { max: 50_000 }),
});

export const bannerSlideSchema = z.object({
  variant: z.enum(["desktop", "mobile"], { message: "Unknown banner" }),
  file: mediaPath("Image").refine((v) => v.startsWith("banners/"), "Banner images live in the banners/ folder"),
  alt: singleLineText("Description", { max: 300, required: "Please describe the slide for people who cannot see it" }),
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
