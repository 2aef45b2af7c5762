/**
 * Staff in the browser tests: the first admin's one-time link (written by `admin:create
 * --link-file` in the test set-up), and invitations from the Staff page with their link read
 * from the captured email.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { waitForHydration } from "./helpers";
import { firstLink, waitForMail } from "./mail-capture";

/**
 * Opens the first admin's one-time link and, if it is still unused (the spec runs alone or
 * first), chooses `password` with it.
 */
export async function setFirstAdminPassword(page: Page, password: string): Promise<void> {
  const link = readFileSync(path.join(process.env.E2E_DATA_DIR!, "admin-link.txt"), "utf8").trim();
  await page.goto(link);
  await waitForHydration(page);
  if ((await page.getByTestId("reset-token-missing").count()) === 0) {
    await page.getByLabel("Enter your new password (8-16 characters)").fill(password);
    await page.getByLabel("Confirm your new password").fill(password);
    await page.getByRole("button", { name: "Submit Request" }).click();
    await page.waitForTimeout(500);
  }
}

/** Chooses `password` with a one-time link (an invitation's or a reset's) and waits for the confirmation. */
export async function setPasswordWithLink(page: Page, link: string, password: string): Promise<void> {
  await page.goto(link);
  await waitForHydration(page);
  await page.getByLabel("Enter your new password (8-16 characters)").fill(password);
  await page.getByLabel("Confirm your new password").fill(password);
  await page.getByRole("button", { name: "Submit Request" }).click();
  await expect(page.getByText(/password (has been|was) (reset|changed|updated)/i).first()).toBeVisible({ timeout: 15_000 });
}

/**
 * A new staff member's invitation link (decision 063): the page asks for the password for the staff
 * console, and the console opens once it is saved (signed in, no login form).
 */
export async function acceptStaffInvitation(page: Page, link: string, password: string, landsOn = "/admin"): Promise<void> {
  await page.goto(link);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "Choose your password for the staff console" })).toBeVisible();
  await page.getByLabel("Your new password (8-16 characters)").fill(password);
  await page.getByLabel("Confirm your new password").fill(password);
  await page.getByRole("button", { name: "Save the password and open the console" }).click();
  await page.waitForURL((url) => url.pathname === landsOn, { timeout: 15_000 });
  await expect(page.getByTestId("console")).toBeVisible();
}

/** Signing in on the login form lives with the other page helpers. */
export { signIn } from "./helpers";

/** The admin (on any console page) invites `email` with `role`; returns the invitation's one-time link. */
export async function inviteStaff(admin: Page, who: { email: string; firstName: string; lastName: string; role: "curator" | "admin" }): Promise<string> {
  await admin.goto("/admin/staff");
  await waitForHydration(admin);
  await admin.getByLabel("Email address").fill(who.email);
  await admin.getByLabel("First name").fill(who.firstName);
  await admin.getByLabel("Last name").fill(who.lastName);
  await admin.getByLabel("Role", { exact: true }).selectOption(who.role);
  await admin.getByRole("button", { name: "Send invitation" }).click();
  await expect(admin.getByText(`Invitation sent to ${who.email}.`)).toBeVisible();
  return firstLink((await waitForMail(who.email, "invited you to the staff console", 30_000)).text);
}
