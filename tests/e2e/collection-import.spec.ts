/**
 * CSV import and bulk actions in Chromium (decision 034): the first admin
 * uploads a file of exhibits with a good row and a bad one, reads the dry run (the bad row by row
 * number and column, no import offered), uploads the corrected file, confirms, and finds the new
 * exhibits in the list; there selects both and adds them to favorite stories in one action.
 * An old export imported after a colleague's edit in another browser (decision 051):
 * the row is flagged with each field's old and new value and applied only when ticked.
 */
import { expect, test } from "./test";
import { parse } from "csv-parse/sync";
import { waitForHydration } from "./helpers";
import { signedInAdmin } from "./people";

const stamp = `${Date.now()}`;
const HEADER = "id,title,short_title,team,category,year,active,favorite_story,description,description_html,thumbnail,thumbnail_alt,matching_photo,matching_photo_alt,enshrinees";
const row = (title: string, year: string) => `,"${title}",Short,Pittsburgh Steelers,Legendary Players,${year},yes,no,Typed in a spreadsheet.,,,,,,`;
const file = (rows: string[]) => ({ name: "gallery.csv", mimeType: "text/csv", buffer: Buffer.from(`${HEADER}\n${rows.join("\n")}\n`, "utf8") });

test("a CSV with a bad row is checked, corrected and imported; the new exhibits become favorite stories in one action", async ({ browser }) => {
  test.setTimeout(180_000);
  const page = await signedInAdmin(browser);
  await page.goto("/admin/exhibits");
  await waitForHydration(page);
  await page.getByRole("link", { name: "Import CSV" }).click();
  await expect(page.getByRole("heading", { name: "Import exhibits" })).toBeVisible();
  await waitForHydration(page);

  const first = `Gallery Jersey ${stamp}`;
  const second = `Gallery Ticket ${stamp}`;
  await page.getByLabel("CSV file").setInputFiles(file([row(first, "1975"), row(second, "19x9")]));
  await page.getByRole("button", { name: "Check the file" }).click();
  await expect(page.getByTestId("console-notice")).toHaveText("Checked 2 rows: 1 would be created, 0 would be updated, 0 unchanged, 1 has errors. Nothing has been imported yet.", { timeout: 30_000 });
  await expect(page.getByTestId("import-row").nth(0)).toContainText("Would create");
  await expect(page.getByTestId("import-row").nth(1)).toContainText("Row 3, year: Year must be a number");
  await expect(page.getByRole("button", { name: /^Import \d+ exhibits?$/ })).toHaveCount(0);

  await page.getByLabel("CSV file").setInputFiles(file([row(first, "1975"), row(second, "1979")]));
  await page.getByRole("button", { name: "Check the file" }).click();
  await expect(page.getByTestId("console-notice")).toHaveText("Checked 2 rows: 2 would be created, 0 would be updated, 0 unchanged, 0 have errors. Nothing has been imported yet.", { timeout: 30_000 });
  await page.getByRole("button", { name: "Import 2 exhibits" }).click();
  await expect(page.getByTestId("console-notice")).toHaveText("Imported 2 exhibits: 2 created, 0 updated, 0 unchanged.", { timeout: 30_000 });

  await page.goto(`/admin/exhibits?q=${stamp}`);
  await waitForHydration(page);
  await page.getByLabel(`Select ${first}`).check();
  await page.getByLabel(`Select ${second}`).check();
  await page.getByLabel("With the rows").selectOption({ label: "Add to favorite stories" });
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("console-notice")).toHaveText("Added 2 exhibits to favorite stories.", { timeout: 30_000 });
  await expect(page.getByRole("row", { name: new RegExp(first) })).toContainText("Listed · Favorite story");
  await expect(page.getByRole("row", { name: new RegExp(second) })).toContainText("Listed · Favorite story");
  // The answer clears the ticks.
  await expect(page.getByLabel(`Select ${first}`)).not.toBeChecked();
  await expect(page.getByLabel(`Select ${second}`)).not.toBeChecked();

  // Moving to the trash asks first, naming the rows, where the person is looking; Undo brings them back.
  await page.getByLabel("Select all on this page").check();
  await expect(page.getByLabel(`Select ${second}`)).toBeChecked();
  await page.getByLabel("With the rows").selectOption({ label: "Move to the trash" });
  await page.getByRole("button", { name: "Apply" }).click();
  const question = page.getByTestId("confirm-trash");
  await expect(question.getByRole("heading")).toHaveText("Move these 2 exhibits to the trash?");
  await expect(question.getByRole("heading")).toBeFocused();
  await expect(question.getByRole("listitem")).toHaveText([first, second].sort());
  await question.getByRole("button", { name: "Move to the trash" }).click();
  await expect(page.getByTestId("console-notice")).toHaveText("Moved 2 exhibits to the trash. Restore them from the Trash if that was a mistake.");
  await expect(page.getByTestId("bulk-answer")).toBeFocused();
  await expect(page.getByRole("row", { name: new RegExp(first) })).toHaveCount(0);
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByTestId("console-notice")).toHaveText("Undone: 2 exhibits put back as they were.");
  await expect(page.getByRole("row", { name: new RegExp(first) })).toContainText("Favorite story");
  await expect(page.getByRole("row", { name: new RegExp(second) })).toContainText("Favorite story");
});

test("an old export imported after a colleague's edit in another browser is flagged, and applied only when ticked", async ({ browser }) => {
  test.setTimeout(180_000);
  const page = await signedInAdmin(browser);
  const colleague = await signedInAdmin(browser);
  const notice = page.getByTestId("console-notice");
  const title = `Gallery Cap ${stamp}`;
  await page.goto("/admin/exhibits/import");
  await waitForHydration(page);
  await page.getByLabel("CSV file").setInputFiles(file([row(title, "1980")]));
  await page.getByRole("button", { name: "Check the file" }).click();
  await page.getByRole("button", { name: "Import 1 exhibit" }).click();
  await expect(notice).toHaveText("Imported 1 exhibit: 1 created, 0 updated, 0 unchanged.", { timeout: 30_000 });

  // The export, kept in a spreadsheet: this exhibit's row with a new short title.
  const [header, ...rows] = parse(await (await page.request.get("/admin/exhibits/export")).text(), { bom: true }) as string[][];
  const cells = rows.find((r) => r[header.indexOf("title")] === title)!;
  cells[header.indexOf("short_title")] = "Short from the file";
  const quoted = (r: string[]) => r.map((c) => `"${c.replace(/"/g, '""')}"`).join(",");
  const oldExport = { name: "old-export.csv", mimeType: "text/csv", buffer: Buffer.from(`${quoted(header)}\n${quoted(cells)}\n`, "utf8") };

  // A colleague retitles the exhibit in the console after the export.
  await colleague.goto(`/admin/exhibits/${cells[0]}`);
  await waitForHydration(colleague);
  await colleague.getByLabel("Title", { exact: true }).fill(`${title} (colleague)`);
  await colleague.getByRole("button", { name: "Save exhibit" }).click();
  await colleague.waitForURL(/\?notice=saved$/, { timeout: 20_000 });

  await page.getByLabel("CSV file").setInputFiles(oldExport);
  await page.getByRole("button", { name: "Check the file" }).click();
  await expect(notice).toHaveText("Checked 1 row: 0 would be created, 0 would be updated, 0 unchanged, 1 changed since the export (left as it is unless ticked), 0 have errors. Nothing has been imported yet.", { timeout: 30_000 });
  const flagged = page.getByTestId("import-row").first();
  await expect(flagged).toContainText("Changed since the export");
  await expect(flagged).toContainText(`title: “${title} (colleague)” → “${title}”`);
  await expect(flagged).toContainText("short_title: “Short” → “Short from the file”");
  // Not ticked: the colleague's edit stays.
  await page.getByRole("button", { name: "Apply the ticked rows" }).click();
  await expect(notice).toHaveText("Imported 0 exhibits: 0 created, 0 updated, 0 unchanged. 1 changed since the export was left as it is.", { timeout: 30_000 });
  await colleague.reload();
  await expect(colleague.getByLabel("Title", { exact: true })).toHaveValue(`${title} (colleague)`);

  // Ticked: the file's row is applied over it.
  await page.getByLabel("CSV file").setInputFiles(oldExport);
  await page.getByRole("button", { name: "Check the file" }).click();
  await page.getByLabel("Apply row 2 anyway, over the change made since the export").check();
  await page.getByRole("button", { name: "Apply the ticked rows" }).click();
  await expect(notice).toHaveText("Imported 1 exhibit: 0 created, 1 updated, 0 unchanged.", { timeout: 30_000 });
  await colleague.reload();
  await expect(colleague.getByLabel("Title", { exact: true })).toHaveValue(title);
  await expect(colleague.getByLabel("Short title (what visitors see)")).toHaveValue("Short from the file");
});
