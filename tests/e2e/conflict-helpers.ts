/**
 * Edit conflicts in the browser tests (decision 029): a save refused because someone else saved
 * the record since shows, field by field, the value typed ("mine") beside the one saved now
 * ("theirs"), and each field's choice is made there. Shared by the exhibit's and the banner's
 * conflict specs.
 */
import { expect, type Page } from "@playwright/test";

/** The console notice of a refused save. */
export const CONFLICT_MESSAGE = "Someone else saved this record while you were editing it. Nothing was saved: choose, field by field, what to keep.";

/** The conflict's choice for the field labelled `label`. */
export const conflictChoice = (page: Page, label: string) => page.getByTestId("edit-conflict").getByRole("group", { name: label, exact: true });

/** The answer to the next POST of `page` to `pathname` (the form's own, or its `.data` fetch). */
export const postAnswer = (page: Page, pathname: string) =>
  page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith(pathname), { timeout: 20_000 });

/**
 * The refused save as the page shows it: the notice, `groups` fields to choose for (those of
 * `fields` unless more are checked by the caller), and for each of `fields` [mine, theirs].
 */
export async function expectConflict(page: Page, fields: Record<string, [mine: string, theirs: string]>, groups = Object.keys(fields).length) {
  await expect(page.getByTestId("console-notice")).toHaveText(CONFLICT_MESSAGE);
  await expect(page.getByTestId("edit-conflict").getByRole("group")).toHaveCount(groups);
  for (const [label, [mine, theirs]] of Object.entries(fields)) {
    await expect(conflictChoice(page, label).getByTestId("conflict-mine")).toHaveText(mine);
    await expect(conflictChoice(page, label).getByTestId("conflict-theirs")).toHaveText(theirs);
  }
}

/** Chooses, for each field label, "Keep mine" or "Take theirs". */
export async function chooseInConflict(page: Page, choices: Record<string, "Keep mine" | "Take theirs">) {
  for (const [label, choice] of Object.entries(choices)) await conflictChoice(page, label).getByLabel(choice).check();
}
