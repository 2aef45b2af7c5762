/**
 * Staff accounts for the console's tests: an account with a real password and a role, signed in.
 */
import { randomUUID } from "node:crypto";
import { hashPassword } from "../../server/accounts/passwords";
import { SESSION_COOKIE } from "../../server/accounts/sessions";
import { users } from "../../server/db/schema";
import type { Services } from "../../server/services";
import sharp from "sharp";

export const STAFF_PASSWORD = "Curate-2024!";

export interface StaffAccount {
  userId: string;
  email: string;
  cookie: string;
}

let passwordHash: Promise<string> | undefined;

export async function createStaffAccount(services: Services, role: "curator" | "admin" | "member", options: { validThrough?: string | null; firstName?: string } = {}): Promise<StaffAccount> {
  passwordHash ??= hashPassword(STAFF_PASSWORD);
  const firstName = options.firstName ?? (role === "member" ? "Mona" : role === "curator" ? "Cora" : "Adam");
  const email = `${role}.${randomUUID().slice(0, 8)}@museum.example`;
  const [row] = await services.database.db
    .insert(users)
    .values({ firstName, lastName: "Staff", email, passwordHash: await passwordHash, role, validThrough: options.validThrough ?? null, termsAcceptedAt: new Date() })
    .returning({ id: users.id });
  const { token } = await services.sessions.create(row.id);
  return { userId: row.id, email, cookie: `${SESSION_COOKIE}=${token}` };
}

/** The two panes of a console preview page (decision 015): what a visitor and what a member see. */
export function previewPanes(html: string): { visitor: string; member: string } {
  const visitorAt = html.indexOf('data-testid="preview-visitor"');
  const memberAt = html.indexOf('data-testid="preview-member"');
  if (visitorAt < 0 || memberAt < 0) throw new Error("not a preview page");
  return { visitor: html.slice(visitorAt, memberAt), member: html.slice(memberAt) };
}

/** A new, inactive exhibit without photos, under the first team and category, saved by `staff`; returns its id. */
export async function createPhotoTestExhibit(services: Services, staff: StaffAccount, title: string, year: number): Promise<string> {
  const [team] = await services.catalog.listTeams();
  const [category] = await services.admin.collection.categories.options();
  const saved = await services.admin.collection.exhibits.save({ userId: staff.userId, email: staff.email }, null, {
    teamId: team._id,
    categoryId: category.id,
    title,
    shortTitle: title.split(" ").slice(0, 2).join(" "),
    descriptionHtml: "<p>Members-only words about the photos.</p>",
    thumbnail: "",
    thumbnailAlt: "",
    matchingPhoto: null,
    matchingPhotoAlt: null,
    active: false,
    year,
    favoriteStory: false,
    enshrineeIds: [],
  });
  if (!saved.ok) throw new Error(`could not save the test exhibit: ${saved.message}`);
  return saved.id;
}

/**
 * Requests to a test server as a browser without JavaScript makes them: `call` with an optional
 * session cookie (redirects not followed), `post` a form as `staff` (repeated fields as arrays).
 */
export function consoleRequests(url: () => string, staff: () => StaffAccount) {
  const call = (cookie: string | undefined, p: string, init: RequestInit = {}) =>
    fetch(`${url()}${p}`, { redirect: "manual", ...init, headers: { ...(cookie ? { cookie } : {}), ...(init.headers as Record<string, string>) } });
  const post = (p: string, fields: Record<string, string | string[]>) => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
    return call(staff().cookie, p, { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } });
  };
  return { call, post };
}

/** A JPEG carrying an EXIF GPS position and a camera name (an upload must come out without them). */
export async function jpegWithGps(color: string, width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .jpeg()
    .withExif({ IFD0: { Make: "SpyCam", Model: "GPS-1" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "40/1 26/1 0/1", GPSLongitudeRef: "W", GPSLongitude: "79/1 59/1 0/1" } })
    .toBuffer();
}
