/**
 * Drafts and scheduled publishing (decision 032) in Chromium: a staff member makes an
 * exhibit a draft, then schedules it for tomorrow; a visitor and a member get 404 for it and do
 * not find it in search or the sitemap; once staff publish it, both find it. (The scheduled time
 * passing, with nobody saving, is checked with an injected clock in
 * tests/integration/publication.test.ts: the server's clock is not the browser's.)
 */
import { type Browser, type Page } from "@playwright/test";
import { expect, test } from "./test";
import type { ExhibitView } from "../../app/shared/catalog-types";
import { exhibitPath } from "../../app/shared/exhibit-links";
import { expectNoSeriousA11yIssues, waitForHydration } from "./helpers";
import { becomeMember, signedInAdmin } from "./people";

test.describe.configure({ mode: "serial" });

/** What a visitor or member sees of the exhibit: its page's status, and whether search and the sitemap list it. */
async function seen(page: Page, exhibit: ExhibitView) {
  const path = exhibitPath(exhibit);
  const response = await page.goto(path);
  const status = response?.status();
  await page.goto(`/search?q=${encodeURIComponent(exhibit.title)}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const inSearch = (await page.locator(`a[href="${path}"]`).count()) > 0;
  const inSitemap = (await (await page.request.get("/sitemap.xml")).text()).includes(`${path}</loc>`);
  return { status, inSearch, inSitemap };
}

async function visitorAndMember(browser: Browser) {
  const visitor = await (await browser.newContext()).newPage();
  const member = await (await browser.newContext()).newPage();
  await member.goto("/");
  await becomeMember(member, "Paula");
  return { visitor, member };
}

async function saveStatus(admin: Page, id: string, label: RegExp, expected: RegExp, time?: string) {
  await admin.goto(`/admin/exhibits/${id}`);
  await waitForHydration(admin);
  await admin.getByRole("radio", { name: label }).check();
  if (time) await admin.getByLabel(/^At \(time, museum time/).fill(time);
  await admin.getByRole("button", { name: "Save exhibit" }).click();
  await expect(admin.getByTestId("console-notice")).toHaveText("Saved.", { timeout: 15_000 });
  await expect(admin.getByTestId("publication-status")).toHaveText(expected);
}

test("staff draft and schedule an exhibit: visitors and members find it nowhere until it is published", async ({ browser }) => {
  test.setTimeout(240_000);
  const admin = await signedInAdmin(browser);
  const exhibits = (await (await admin.request.get("/api/exhibits/?active=true")).json()) as ExhibitView[];
  const exhibit = exhibits.find((e) => e.favoriteStory) ?? exhibits[0];
  const { visitor, member } = await visitorAndMember(browser);
  const shown = { status: 200, inSearch: true, inSitemap: true };
  const hidden = { status: 404, inSearch: false, inSitemap: false };
  expect(await seen(visitor, exhibit)).toEqual(shown);

  // Draft.
  await saveStatus(admin, exhibit._id, /^Draft/, /^Now: Draft$/);
  await expectNoSeriousA11yIssues(admin);
  expect(await seen(visitor, exhibit)).toEqual(hidden);
  expect(await seen(member, exhibit)).toEqual(hidden);
  // The list says so, and staff preview still shows it.
  await admin.goto(`/admin/exhibits?q=${encodeURIComponent(exhibit.title)}`);
  await expect(admin.getByRole("row", { name: new RegExp(exhibit.title) }).getByText("Draft", { exact: true })).toBeVisible();
  await admin.goto(`/admin/exhibits/${exhibit._id}/preview`);
  await expect(admin.getByTestId("preview-visitor")).toContainText(exhibit.title);

  // A time in the past is refused, with the fields kept.
  await admin.goto(`/admin/exhibits/${exhibit._id}`);
  await waitForHydration(admin);
  await admin.getByRole("radio", { name: "Scheduled" }).check();
  await admin.getByLabel("Publish on (date, for Scheduled)").fill("2020-01-01");
  await admin.getByRole("button", { name: "Save exhibit" }).click();
  await expect(admin.getByText("That time has passed: choose a later date or time, or choose Published.")).toBeVisible({ timeout: 15_000 });

  // Scheduled for tomorrow (the date field's default) at 09:45, museum time: to the minute.
  await saveStatus(admin, exhibit._id, /^Scheduled$/, /^Now: Scheduled for \d{4}-\d{2}-\d{2} 09:45 E[SD]T$/, "09:45");
  expect(await seen(visitor, exhibit)).toEqual(hidden);
  expect(await seen(member, exhibit)).toEqual(hidden);

  // Published again: everyone finds it.
  await saveStatus(admin, exhibit._id, /^Published$/, /^Now: Published$/);
  expect(await seen(visitor, exhibit)).toEqual(shown);
  expect(await seen(member, exhibit)).toEqual(shown);
});
