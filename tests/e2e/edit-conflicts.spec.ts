/**
 * Edit conflicts (decision 029; merging, decision 050), two staff in
 * two browsers: the admin and a curator open one exhibit; the admin saves a new year and a
 * sentence; the curator saves an older copy with a new title and another year: only the year is
 * a question (409), the title and the admin's sentence are combined; choosing and saving again
 * keeps what each chose. Without JavaScript: a save of another field is merged and says so; a
 * save of the same field is the question.
 */
import { type BrowserContext, type Page } from "@playwright/test";
import { expect, test } from "./test";
import { chooseInConflict, expectConflict, postAnswer } from "./conflict-helpers";
import { waitForHydration } from "./helpers";
import { acceptStaffInvitation, inviteStaff, setFirstAdminPassword, signIn } from "./staff-helpers";

const ADMIN_EMAIL = "e2e-admin@museum.example";
const PASSWORD = "Console-1!";
const stamp = `${Date.now()}`;
const CURATOR_EMAIL = `conflict.${stamp}@museum.example`;
const TITLE = `The Conflict Catch ${stamp}`;
const NEW_TITLE = `The Catch Retitled ${stamp}`;

/** The first admin: sets the password with admin:create's link if it is still unused, then signs in. */
async function signedInAdmin(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await setFirstAdminPassword(page, PASSWORD);
  await signIn(page, ADMIN_EMAIL, PASSWORD, "/admin");
  return page;
}

// The two staff members' browsers, shared by this file's tests in order.
let adminContext: BrowserContext;
let curatorContext: BrowserContext;
let adminPage: Page;
let exhibitPath: string;

test.describe.configure({ mode: "serial" });
test.beforeAll(async ({ browser }) => {
  adminContext = await browser.newContext();
  curatorContext = await browser.newContext();
});
test.afterAll(async () => {
  await adminContext?.close();
  await curatorContext?.close();
});

test("two staff save one exhibit: only the field both changed is a question, the rest is combined, and each keeps what they chose", async () => {
  test.setTimeout(240_000);
  const admin = await signedInAdmin(adminContext);
  adminPage = admin;

  // The admin invites a curator, who chooses a password and signs in in another browser.
  const invitation = await inviteStaff(admin, { email: CURATOR_EMAIL, firstName: "Connie", lastName: "Curator", role: "curator" });
  const curator = await curatorContext.newPage();
  await acceptStaffInvitation(curator, invitation, PASSWORD);

  // The admin makes the exhibit.
  await admin.goto("/admin/exhibits/new");
  await waitForHydration(admin);
  await admin.getByTestId("rich-text-editor").waitFor();
  await admin.getByLabel("Team", { exact: true }).selectOption({ index: 1 });
  await admin.getByLabel("Category", { exact: true }).selectOption({ index: 1 });
  await admin.getByLabel("Title", { exact: true }).fill(TITLE);
  await admin.getByLabel("Short title (what visitors see)").fill("Conflict Catch");
  await admin.getByLabel("Year", { exact: true }).fill("1972");
  await admin.getByTestId("rich-text-editor").click();
  await admin.keyboard.type("The first sentence.");
  await admin.getByRole("button", { name: "Save exhibit" }).click();
  await admin.waitForURL(/\/admin\/exhibits\/[0-9a-f-]{36}\?notice=saved$/, { timeout: 20_000 });
  exhibitPath = new URL(admin.url()).pathname;

  // Both open it.
  await curator.goto(exhibitPath);
  await waitForHydration(curator);
  await curator.getByTestId("rich-text-editor").waitFor();
  await admin.goto(exhibitPath);
  await waitForHydration(admin);
  await admin.getByTestId("rich-text-editor").waitFor();

  // The admin changes the year and adds a sentence, and saves.
  await admin.getByLabel("Year", { exact: true }).fill("1973");
  await admin.getByTestId("rich-text-editor").click();
  await admin.keyboard.press("Control+End");
  await admin.keyboard.press("Enter");
  await admin.keyboard.type("A sentence the admin added.");
  await admin.getByRole("button", { name: "Save exhibit" }).click();
  await admin.waitForURL(/notice=saved$/, { timeout: 20_000 });
  await expect(admin.getByTestId("console-notice")).toHaveText("Saved.");

  // The curator, on the older copy, gives it a new title and another year and saves: the year both
  // changed is the one question; the title (only theirs) and the admin's text (only the admin's) are combined.
  await curator.getByLabel("Title", { exact: true }).fill(NEW_TITLE);
  await curator.getByLabel("Year", { exact: true }).fill("1975");
  const answer = postAnswer(curator, exhibitPath);
  await curator.getByRole("button", { name: "Save exhibit" }).click();
  expect((await answer).status()).toBe(409);
  await expectConflict(curator, { Year: ["1975", "1973"] }, 1);
  await expect(curator.getByTestId("conflict-taken")).toContainText("Text (members only)");
  await expect(curator.getByTestId("rich-text-editor")).toContainText("A sentence the admin added.");
  await expect(curator.getByLabel("Title", { exact: true })).toHaveValue(NEW_TITLE);

  // The curator takes the admin's year.
  await chooseInConflict(curator, { Year: "Take theirs" });
  await curator.getByRole("button", { name: "Save exhibit" }).click();
  await curator.waitForURL(/notice=saved$/, { timeout: 20_000 });
  await expect(curator.getByTestId("console-notice")).toHaveText("Saved.");

  // What each did, as anyone opening it now sees it.
  await admin.goto(exhibitPath);
  await waitForHydration(admin);
  await expect(admin.getByLabel("Title", { exact: true })).toHaveValue(NEW_TITLE);
  await expect(admin.getByLabel("Year", { exact: true })).toHaveValue("1973");
  await expect(admin.getByTestId("rich-text-editor")).toContainText("The first sentence.");
  await expect(admin.getByTestId("rich-text-editor")).toContainText("A sentence the admin added.");
});

test("without JavaScript: another field is merged and says so; the same field is the question, and saving again keeps the choice", async ({ browser }) => {
  test.setTimeout(180_000);
  const admin = adminPage;
  const curator = await (await browser.newContext({ javaScriptEnabled: false, storageState: await curatorContext.storageState() })).newPage();
  await curator.goto(exhibitPath);
  await expect(curator.getByLabel("Title", { exact: true })).toHaveValue(NEW_TITLE);

  await admin.goto(exhibitPath);
  await waitForHydration(admin);
  await admin.getByTestId("rich-text-editor").waitFor();
  await admin.getByLabel("Year", { exact: true }).fill("1974");
  await admin.getByRole("button", { name: "Save exhibit" }).click();
  await admin.waitForURL(/notice=saved$/, { timeout: 20_000 });

  // Different fields: merged and saved, saying so.
  await curator.getByLabel("Short title (what visitors see)").fill("Catch, Short");
  await curator.getByRole("button", { name: "Save exhibit" }).click();
  await curator.waitForURL(/notice=merged$/, { timeout: 20_000 });
  await expect(curator.getByTestId("console-notice")).toContainText("Saved, together with what someone else saved meanwhile");
  await expect(curator.getByLabel("Year", { exact: true })).toHaveValue("1974");
  await expect(curator.getByLabel("Short title (what visitors see)")).toHaveValue("Catch, Short");

  // The same field: the question, without JavaScript too.
  await admin.goto(exhibitPath);
  await waitForHydration(admin);
  await admin.getByTestId("rich-text-editor").waitFor();
  await admin.getByLabel("Year", { exact: true }).fill("1980");
  await admin.getByRole("button", { name: "Save exhibit" }).click();
  await admin.waitForURL(/notice=saved$/, { timeout: 20_000 });
  await curator.getByLabel("Year", { exact: true }).fill("1999");
  const answer = postAnswer(curator, exhibitPath);
  await curator.getByRole("button", { name: "Save exhibit" }).click();
  expect((await answer).status()).toBe(409);
  await expectConflict(curator, { Year: ["1999", "1980"] }, 1);
  // The form still holds what was typed.
  await expect(curator.getByLabel("Short title (what visitors see)")).toHaveValue("Catch, Short");
  await expect(curator.getByLabel("Year", { exact: true })).toHaveValue("1999");

  await chooseInConflict(curator, { Year: "Take theirs" });
  await curator.getByRole("button", { name: "Save exhibit" }).click();
  await curator.waitForURL(/notice=saved$/, { timeout: 20_000 });
  await expect(curator.getByTestId("console-notice")).toHaveText("Saved.");
  await expect(curator.getByLabel("Year", { exact: true })).toHaveValue("1980");
  await expect(curator.getByLabel("Short title (what visitors see)")).toHaveValue("Catch, Short");
  await expect(curator.getByLabel("Title", { exact: true })).toHaveValue(NEW_TITLE);
});
