/**
 * The staff console in Chromium: the first admin from `admin:create`'s one-time link
 * invites a curator by email; the curator adds an exhibit with three photos, drags them into a
 * new order and sets the thumbnail; a visitor then sees the exhibit's title only, a member sees
 * the photos in the new order; the audit log shows the change; a curator cannot open the admin
 * areas. Every console page visited passes axe.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { type Browser, type Page } from "@playwright/test";
import { expect, test } from "./test";
import sharp from "sharp";
import { expectNoSeriousA11yIssues, waitForHydration } from "./helpers";
import { acceptStaffInvitation, inviteStaff, setPasswordWithLink, signIn } from "./staff-helpers";

const ADMIN_EMAIL = "e2e-admin@museum.example";
const PASSWORD = "Console-1!";
const stamp = `${Date.now()}`;
const CURATOR_EMAIL = `curator.${stamp}@museum.example`;
const TITLE = `The Console Drive ${stamp}`;

async function newPage(browser: Browser) {
  return (await browser.newContext()).newPage();
}

function png(color: string) {
  return sharp({ create: { width: 320, height: 200, channels: 3, background: color } }).png().toBuffer();
}

/** Drags `from` onto `to` with small pointer moves, as a person would (dnd-kit's pointer sensor). */
async function drag(page: Page, from: ReturnType<Page["locator"]>, to: ReturnType<Page["locator"]>) {
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2 - 10, { steps: 5 });
  await page.mouse.move(b.x + b.width / 2, b.y + 5, { steps: 20 });
  await page.mouse.up();
}

test.describe.configure({ mode: "serial" });

test("a curator invited by the first admin adds an exhibit with three photos in a chosen order", async ({ browser }) => {
  test.setTimeout(180_000);
  // The first admin: the link printed by `npm run admin:create` (written to a file by the test set-up).
  const admin = await newPage(browser);
  const adminLink = readFileSync(path.join(process.env.E2E_DATA_DIR!, "admin-link.txt"), "utf8").trim();
  await setPasswordWithLink(admin, adminLink, PASSWORD);
  await signIn(admin, ADMIN_EMAIL, PASSWORD, "/admin/staff");
  await expect(admin.getByRole("heading", { name: "Staff", exact: true })).toBeVisible();
  await expectNoSeriousA11yIssues(admin);

  // The admin invites a curator; the invitation arrives by email with its one-time link.
  const invitation = await inviteStaff(admin, { email: CURATOR_EMAIL, firstName: "Cora", lastName: "Curator", role: "curator" });

  const curator = await newPage(browser);
  await acceptStaffInvitation(curator, invitation, PASSWORD);
  await expect(curator.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Staff" })).toHaveCount(0);
  await expectNoSeriousA11yIssues(curator);

  // A curator cannot open the admin areas: members (and their payments) and staff are not there for them.
  for (const area of ["/admin/members", "/admin/staff"]) {
    const answer = await curator.goto(area);
    expect(answer?.status(), area).toBe(404);
  }

  // The rich-text editor's code loads on edit pages only.
  const editorLoaded = (page: Page) => page.evaluate(() => performance.getEntriesByType("resource").some((r) => /RichTextEditor/.test(r.name)));
  await curator.goto("/admin/exhibits");
  await waitForHydration(curator);
  expect(await editorLoaded(curator)).toBe(false);

  // The exhibit.
  await curator.goto("/admin/exhibits/new");
  await waitForHydration(curator);
  await curator.getByTestId("rich-text-editor").waitFor();
  expect(await editorLoaded(curator)).toBe(true);
  await expectNoSeriousA11yIssues(curator);
  await curator.getByLabel("Team", { exact: true }).selectOption({ index: 1 });
  await curator.getByLabel("Category", { exact: true }).selectOption({ index: 1 });
  await curator.getByLabel("Title", { exact: true }).fill(TITLE);
  await curator.getByLabel("Short title (what visitors see)").fill("Console Drive");
  await curator.getByLabel("Year", { exact: true }).fill("1972");
  const editor = curator.getByTestId("rich-text-editor");
  await editor.click();
  await curator.getByRole("button", { name: "Bold" }).click();
  await curator.keyboard.type("The drive");
  // Pressing a toolbar button leaves the focus in the text, so what is typed next goes there
  // (TipTap gives the focus back only on the next frame: a space typed before that pressed Bold again).
  await curator.getByRole("button", { name: "Bold" }).hover();
  await curator.mouse.down();
  expect(await curator.evaluate(() => document.activeElement?.closest('[data-testid="rich-text-editor"]') !== null)).toBe(true);
  await curator.mouse.up();
  await curator.keyboard.type(" that members read about.");
  await curator.keyboard.press("Enter");
  await curator.keyboard.type("A second paragraph.");
  await curator.getByRole("checkbox", { name: /^Listed/ }).check();
  await curator.getByRole("button", { name: "Save exhibit" }).click();
  await curator.waitForURL(/\/admin\/exhibits\/[0-9a-f-]{36}\?notice=saved$/);
  await expect(curator.getByTestId("console-notice")).toHaveText("Saved.");
  const exhibitId = /\/admin\/exhibits\/([0-9a-f-]{36})/.exec(curator.url())![1];
  // The text was stored as rich text (bold kept), and is edited as such again.
  await curator.getByTestId("rich-text-editor").waitFor();
  await expect(curator.getByTestId("rich-text-editor").locator("strong")).toHaveText("The drive");

  // Three photos in one upload.
  await curator.getByRole("link", { name: "Photos (0)" }).click();
  await expect(curator.getByRole("heading", { name: `Photos: ${TITLE}` })).toBeVisible();
  await curator.getByLabel("Description of the photos (for people who cannot see them)").fill("The drive");
  await curator.getByLabel("Photo files").setInputFiles([
    { name: "red.png", mimeType: "image/png", buffer: await png("#cc0000") },
    { name: "green.png", mimeType: "image/png", buffer: await png("#00cc00") },
    { name: "blue.png", mimeType: "image/png", buffer: await png("#0000cc") },
  ]);
  await curator.getByRole("button", { name: "Upload" }).click();
  await expect(curator.getByTestId("console-notice")).toHaveText("Photos uploaded.");
  const rows = curator.getByTestId("photo-row");
  await expect(rows).toHaveCount(3);
  await waitForHydration(curator);
  await expectNoSeriousA11yIssues(curator);
  const uploaded = await rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-file")!));

  // Drag the third photo to the top, then choose the photo now second as the thumbnail.
  await drag(curator, rows.nth(2).getByTestId("drag-handle"), rows.nth(0));
  const dragged = await rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-file")!));
  expect(dragged).toEqual([uploaded[2], uploaded[0], uploaded[1]]);
  await rows.nth(1).getByLabel("Thumbnail").check();
  await curator.getByRole("button", { name: "Save photos" }).click();
  await expect(curator.getByTestId("console-notice")).toHaveText("Photos saved.");
  await expect.poll(() => rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-file")!))).toEqual(dragged);

  // The public exhibit page, at once (the caches were told on commit).
  const api = await curator.request.get(`/api/exhibits/${exhibitId}`);
  const teamId = ((await api.json()) as { team: { _id: string } }).team._id;
  const slug = TITLE.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  const publicPath = `/teams/${teamId}/${slug}/${exhibitId}`;

  const visitor = await newPage(browser);
  await visitor.goto(publicPath);
  await expect(visitor.getByRole("heading", { name: TITLE })).toBeVisible();
  await expect(visitor.locator(`img[src*="exhibits/${exhibitId}/"]`)).toHaveCount(0);
  await expect(visitor.getByText("The drive that members read about.")).toHaveCount(0);

  const member = await newPage(browser);
  const memberEmail = `member.${stamp}@example.com`;
  const signUp = await member.request.post("/api/users/", {
    data: { firstName: "Mia", lastName: "Member", emailAddress: memberEmail, emailAddressConfirm: memberEmail, password: "Steel3rs!", passwordConfirm: "Steel3rs!", termsAndConditions: true },
  });
  expect(signUp.status()).toBe(201);
  expect((await member.request.post("/api/stripe/payment", { data: { id: "pm_card_visa" } })).status()).toBe(200);
  await member.goto(publicPath);
  await expect(member.getByText("The drive that members read about.")).toBeVisible();
  const shown = await member.locator(`img[src*="exhibits/${exhibitId}/"]`).evaluateAll((els) =>
    els.map((el) => new URL((el as HTMLImageElement).getAttribute("src")!, location.href).pathname.replace("/images/view/", "")),
  );
  expect([...new Set(shown)]).toEqual(dragged);

  // The audit log shows the change, with who made it.
  await curator.goto("/admin/audit?entity=exhibit");
  await expect(curator.getByRole("cell", { name: `Arranged the photos of ${TITLE}` })).toBeVisible();
  await expect(curator.getByRole("cell", { name: `Added 3 photos to ${TITLE}` })).toBeVisible();
  await expect(curator.getByRole("cell", { name: CURATOR_EMAIL }).first()).toBeVisible();
  await expectNoSeriousA11yIssues(curator);

  // The preview of the saved exhibit, as a visitor and as a member.
  await curator.goto(`/admin/exhibits/${exhibitId}/preview`);
  await expect(curator.getByTestId("preview-member").getByText("The drive that members read about.")).toBeVisible();
  await expect(curator.getByTestId("preview-visitor").getByText("The drive that members read about.")).toHaveCount(0);
});

test("an admin refunds a member, who then loses access; the CSV export holds the rows of the filter", async ({ browser }) => {
  test.setTimeout(120_000);
  // A member who bought a ticket (test mode), and a members-only text to look at.
  const member = await newPage(browser);
  const email = `refund.${stamp}@example.com`;
  const signUp = await member.request.post("/api/users/", {
    data: { firstName: "Rita", lastName: `Refund${stamp}`, emailAddress: email, emailAddressConfirm: email, password: "Steel3rs!", passwordConfirm: "Steel3rs!", termsAndConditions: true },
  });
  expect(signUp.status()).toBe(201);
  expect((await member.request.post("/api/stripe/payment", { data: { id: "pm_card_visa" } })).status()).toBe(200);
  const exhibits = (await (await member.request.get("/api/exhibits/?active=true")).json()) as { _id: string; description?: string }[];
  const withText = exhibits.find((e) => (e.description ?? "").length > 0)!;
  expect(withText).toBeDefined();

  const admin = await newPage(browser);
  await signIn(admin, ADMIN_EMAIL, PASSWORD, "/admin");
  // The console's classes come from its own stylesheet, not the inline one every page carries (decision 016).
  expect(await admin.locator("style#site-css").textContent()).not.toContain(".bg-stone-100");
  await expect(admin.locator('link[rel="stylesheet"][href^="/assets/console-"]')).toHaveCount(1);
  const consoleRules = () =>
    admin.evaluate(() => [...document.styleSheets].filter((s) => s.href?.includes("/assets/console-")).flatMap((s) => [...s.cssRules].map((r) => r.cssText)).join("\n"));
  await expect.poll(consoleRules).toContain(".bg-stone-100");
  await expect(admin.getByTestId("console")).toHaveCSS("max-width", "1280px");
  await admin.goto(`/admin/members?q=${encodeURIComponent(email)}`);
  await expectNoSeriousA11yIssues(admin);
  await admin.getByRole("link", { name: `Refund${stamp}, Rita` }).click();
  await expect(admin.getByTestId("member-state")).toHaveText("valid");
  await expectNoSeriousA11yIssues(admin);
  // Two steps: "Refund" opens the confirmation; its button refuses to post until the box is ticked.
  await admin.getByText(/^Refund/).first().click();
  const confirmRefund = admin.getByRole("button", { name: /^Confirm the refund/ });
  await confirmRefund.click();
  await expect(admin.getByTestId("member-state")).toHaveText("valid");
  await admin.getByRole("checkbox", { name: /^Yes, refund/ }).check();
  await confirmRefund.click();
  await expect(admin.getByTestId("console-notice")).toContainText("Refunded.");
  await expect(admin.getByTestId("member-state")).toHaveText("expired");

  // The member's very next request has no member content.
  const after = (await (await member.request.get(`/api/exhibits/${withText._id}`)).json()) as { description?: string };
  expect(after.description).toBeUndefined();

  // The export of the filtered list: exactly the rows the filter shows.
  await admin.goto(`/admin/members?state=expired&q=${encodeURIComponent(email)}`);
  await expect(admin.getByText("Page 1 of 1 (1 in all)")).toBeVisible();
  const [download] = await Promise.all([admin.waitForEvent("download"), admin.getByRole("link", { name: "Export these members (CSV)" }).click()]);
  const csv = readFileSync((await download.path())!, "utf8").replace(/^\ufeff/, "").trim().split("\r\n");
  expect(csv[0]).toBe("email,first_name,last_name,ticket,valid_through,joined,email_opt_in");
  expect(csv.slice(1)).toHaveLength(1);
  expect(csv[1].startsWith(`${email},Rita,Refund${stamp},expired,`)).toBe(true);
});

test("staff preview an enshrinee's page before saving, as a visitor and as a member", async ({ browser }) => {
  const admin = await newPage(browser);
  await signIn(admin, ADMIN_EMAIL, PASSWORD, "/admin");
  await admin.goto("/admin/enshrinees");
  await admin.locator(`table a[href^="/admin/enshrinees/"]`).first().click();
  await admin.waitForURL(/\/admin\/enshrinees\/[0-9a-f-]{36}$/);
  const editAddress = admin.url();
  await waitForHydration(admin);
  const savedName = await admin.getByLabel("Full name").inputValue();
  const draft = `A biography typed at ${stamp}, not saved.`;
  // The biography is rich text (decision 033): the editor replaces the plain field once hydrated.
  await admin.getByTestId("rich-text-editor").waitFor();
  await admin.getByRole("textbox", { name: "Biography (members only)" }).fill(draft);
  await admin.getByRole("button", { name: "Preview without saving" }).click();
  await expect(admin.getByRole("heading", { name: "Preview (not saved)" })).toBeVisible();
  await expect(admin.getByTestId("preview-member").getByText(draft)).toBeVisible();
  await expect(admin.getByTestId("preview-visitor").getByText(draft)).toHaveCount(0);
  await expect(admin.getByTestId("preview-visitor").getByRole("heading", { name: savedName })).toBeVisible();
  await expect(admin.getByTestId("preview-visitor").getByRole("heading", { name: /Exhibits and Mentions/ })).toBeVisible();
  await expectNoSeriousA11yIssues(admin);
  // Nothing was saved: the edit page still holds the saved biography.
  await admin.goto(editAddress);
  await expect(admin.getByRole("textbox", { name: "Biography (members only)" })).not.toContainText(draft);
});
