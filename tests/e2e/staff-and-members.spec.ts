/**
 * Staff and members in Chromium: the admin invites a paying member's address;
 * the page says she has a member account and the console stays closed to her until she accepts
 * from the emailed link; Deactivate asks first and then closes only the console, her ticket and
 * member content untouched. Two browser contexts: the admin and the member.
 */
import { expect, test } from "./test";
import { STAFF_MESSAGES } from "../../app/shared/staff-messages";
import { expectNoSeriousA11yIssues } from "./helpers";
import { firstLink, waitForMail } from "./mail-capture";
import { signedInAdmin } from "./people";
import { DESKTOP, hydrated, memberViaApi, newPerson } from "./visitor-helpers";

test("a member invited to the staff accepts herself, and deactivation asks first and leaves her a member", async ({ browser }) => {
  const admin = await signedInAdmin(browser, DESKTOP);
  const member = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  const p = newPerson("Paula");
  await memberViaApi(member, p);

  await admin.goto("/admin/staff");
  await hydrated(admin);
  await admin.getByLabel("Email address").fill(p.email);
  await admin.getByLabel("First name").fill("Someone");
  await admin.getByLabel("Last name").fill("Else");
  await admin.getByLabel("Role", { exact: true }).selectOption("curator");
  await admin.getByRole("button", { name: "Send invitation" }).click();
  await expect(admin.getByText(STAFF_MESSAGES.memberInvited(p.email))).toBeVisible();
  await expect(admin.getByRole("row", { name: new RegExp(p.email) })).toContainText("Invitation pending: a member account, not on the staff until accepted");

  // Not on the staff yet: the console does not open for her.
  expect((await member.request.get("/admin", { maxRedirects: 0 })).status()).toBe(404);

  const link = firstLink((await waitForMail(p.email, "invited you to the staff", 30_000)).text);
  await member.goto(link);
  await hydrated(member);
  await expect(member.getByRole("heading", { name: STAFF_MESSAGES.acceptQuestion("curator") })).toBeVisible();
  await expectNoSeriousA11yIssues(member);
  await member.getByRole("button", { name: "Accept the invitation" }).click();
  await expect(member.getByTestId("form-outcome")).toHaveText(STAFF_MESSAGES.accepted("curator"));
  await member.getByRole("link", { name: "Open the staff console" }).click();
  await expect(member).toHaveURL(/\/admin$/);
  expect((await member.request.get("/admin", { maxRedirects: 0 })).status()).toBe(200);

  // Deactivate asks first; Cancel changes nothing; the second button deactivates.
  await admin.goto("/admin/staff");
  await hydrated(admin);
  await admin.getByRole("button", { name: `Deactivate ${p.email}` }).click();
  const question = admin.getByTestId("confirm-deactivate");
  await expect(question.getByRole("heading", { name: STAFF_MESSAGES.deactivateQuestion(p.email) })).toBeVisible();
  await question.getByRole("link", { name: "Cancel" }).click();
  await expect(admin.getByTestId("confirm-deactivate")).toHaveCount(0);
  expect((await member.request.get("/admin", { maxRedirects: 0 })).status()).toBe(200);
  await admin.getByRole("button", { name: `Deactivate ${p.email}` }).click();
  await admin.getByTestId("confirm-deactivate").getByRole("button", { name: `Deactivate ${p.email}` }).click();
  await expect(admin.getByText(STAFF_MESSAGES.deactivatedMember(p.email))).toBeVisible();

  // Only the console closes: her session, ticket and member content stay.
  expect((await member.request.get("/admin", { maxRedirects: 0 })).status()).toBe(404);
  const exhibits = await member.request.get("/api/exhibits/");
  expect(exhibits.status()).toBe(200);
  expect(Array.isArray(await exhibits.json())).toBe(true);
  await member.goto("/account");
  await expect(member).toHaveURL(/\/account$/);
});
