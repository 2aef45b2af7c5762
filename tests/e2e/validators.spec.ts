/**
 * The Nu HTML Checker (vnu-jar) and axe with its best-practice rules
 * over every public page, as a visitor and as a member, failing on any error that decision 026
 * does not excuse. Each page is loaded in Chromium and checked by axe once hydrated, on a desktop
 * (1366x900) and on a phone (390x844), where the menu, the banner and the targets differ; the HTML the
 * server sent for it (the navigation's response: what the Nu checker is about, not the live DOM)
 * is written to a temp dir, and the checker runs once over all of them at the end. The Nu part needs Java: without it, it skips with a printed
 * reason outside CI and fails in CI (.ci/run installs Debian's default-jre-headless).
 */
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { type Page } from "@playwright/test";
import { expect, test } from "./test";
import { categoryPath, enshrineeExhibitPath, enshrineePath, exhibitPath, favoriteStoryPath, teamPath } from "../../app/shared/exhibit-links";
import { axe } from "./helpers";
import { firstLink, waitForMail } from "./mail-capture";
import { allExhibits, DESKTOP, enshrineeWithExhibit, favoriteStories, hydrated, memberViaApi, newPerson, payWithTestCard, PHONE } from "./visitor-helpers";

const run = promisify(execFile);
/** The package exports the path of its vnu.jar (CommonJS, untyped). */
const VNU_JAR = String(createRequire(import.meta.url)("vnu-jar") as string);

/** axe's WCAG 2.2 A/AA rules and its best-practice rules. */
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"];

/**
 * Nu checker messages excused by docs/decisions/026-validators.md (the reasons are there): markup
 * and CSS the checker does not know yet.
 */
const NU_EXCUSED: { message: RegExp; reason: string }[] = [
  {
    message: /^A “link” element with a “blocking” attribute must have a “rel” attribute whose value is “stylesheet”\.$/,
    reason: "<link rel=expect blocking=render> (decision 016): the HTML Standard defines it; the checker does not know it yet",
  },
  { message: /^CSS: Unrecognized at-rule “@property”$/, reason: "@property (CSS Properties and Values API): Tailwind's; checker gap" },
  { message: /^CSS: “margin-trim”: Property “margin-trim” doesn't exist\.$/, reason: "margin-trim in Tailwind's @supports test: checker gap" },
];

interface NuMessage {
  type: string;
  subType?: string;
  url?: string;
  message: string;
  extract?: string;
  lastLine?: number;
}

async function javaVersion(): Promise<string | null> {
  try {
    const { stderr, stdout } = await run("java", ["-version"]);
    return (stderr || stdout).split("\n")[0] ?? "java";
  } catch {
    return null;
  }
}

/** Runs the Nu checker once over `files`; its JSON report goes to stderr (exit 1 when it found errors). */
async function nuErrors(files: string[]): Promise<NuMessage[]> {
  let report: string;
  try {
    const { stderr } = await run("java", ["-jar", VNU_JAR, "--format", "json", "--errors-only", ...files], { maxBuffer: 64 * 1024 * 1024 });
    report = stderr;
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    if (!err.stderr?.trim().startsWith("{")) throw new Error(`the Nu checker failed: ${err.message}`, { cause: e });
    report = err.stderr;
  }
  return (JSON.parse(report) as { messages: NuMessage[] }).messages.filter((m) => m.type === "error" || m.type === "non-document-error");
}

/** A gift's payment page: a new draft each time (a paid gift's page is no longer the payment form). */
async function giftPayPath(page: Page): Promise<string> {
  const buyer = newPerson("Vera");
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(new Date());
  const drafted = await page.request.post("/gift", {
    form: { buyerFirstName: buyer.firstName, buyerLastName: buyer.lastName, buyerEmail: buyer.email, recipientFirstName: "Val", recipientLastName: "Idator", recipientEmail: newPerson("Val").email, message: "Enjoy the museum.", deliverOn: today },
    maxRedirects: 0,
  });
  expect(drafted.status(), "a gift drafted").toBe(302);
  return drafted.headers().location.replace(/^https?:\/\/[^/]+/, "");
}

let redeemLink: string | null = null;
/** The redeem page of a gift paid with a test card (made once, from the emailed link). */
async function giftRedeemPath(page: Page): Promise<string> {
  if (redeemLink) return redeemLink;
  const recipient = newPerson("Rhea");
  await page.goto("/gift");
  await page.getByLabel("Your first name").fill("Gus");
  await page.getByLabel("Your last name").fill("Giver");
  await page.getByLabel("Your email address").fill(newPerson("Gus").email);
  await page.getByLabel("Recipient's first name").fill(recipient.firstName);
  await page.getByLabel("Recipient's last name").fill(recipient.lastName);
  await page.getByLabel("Recipient's email address").fill(recipient.email);
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page).toHaveURL(/\/gift\/[0-9a-f-]{36}\/pay$/);
  await payWithTestCard(page);
  await expect(page).toHaveURL(/\/gift\/sent\?gift=/);
  const mail = await waitForMail(recipient.email, "You have been given");
  redeemLink = firstLink(mail.text).replace(/^https?:\/\/[^/]+/, "");
  return redeemLink;
}

/** Every public page of spec section 2 a person of this kind can open. */
async function publicPages(page: Page): Promise<string[]> {
  const exhibits = (await allExhibits(page.request)).filter((e) => e.active);
  const exhibit = exhibits[0];
  expect(exhibit, "the demo collection has an active exhibit").toBeTruthy();
  const favorite = (await favoriteStories(page.request))[0];
  expect(favorite, "the demo collection has a favorite story").toBeTruthy();
  const enshrinee = await enshrineeWithExhibit(page.request);
  return [
    "/",
    teamPath(exhibit.team._id),
    categoryPath(exhibit.team._id, exhibit.category._id),
    exhibitPath(exhibit),
    "/enshrinees",
    enshrineePath(enshrinee),
    enshrineeExhibitPath(enshrinee, enshrinee.exhibits[0]._id),
    "/favoritestories",
    favoriteStoryPath(favorite._id),
    "/search?q=clemente",
    "/about",
    "/contact",
    "/subscribe",
    "/termsandconditions",
    "/privacypolicy",
    "/admission",
    "/admission/payment",
    "/gift",
    await giftPayPath(page),
    await giftRedeemPath(page),
    "/login",
    "/password/request",
    "/account",
    "/no-such-page-for-the-validators",
  ];
}

const htmlDir = mkdtempSync(path.join(tmpdir(), "museum-validators-"));
const htmlFiles: string[] = [];
test.afterAll(() => rmSync(htmlDir, { recursive: true, force: true }));

/** Opens each page, saves the HTML the server sent for the Nu checker, and runs axe once it has hydrated. */
async function checkPages(page: Page, who: string) {
  for (const url of await publicPages(page)) {
    // The navigation's response body is the HTML the server sent, before any script ran.
    const response = await page.goto(url);
    expect([200, 404], `${who} ${url}: ${response?.status()}`).toContain(response?.status());
    const file = path.join(htmlDir, `${who}-${htmlFiles.length}${url.replace(/[^a-z0-9]+/gi, "-")}.html`);
    writeFileSync(file, await response!.text());
    htmlFiles.push(file);

    await hydrated(page);
    const results = await axe(page).withTags(AXE_TAGS).analyze();
    // Soft: every page's findings are reported, not only the first page's.
    expect.soft(results.violations.map((v) => `${v.id} (${v.help}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`), `${who} ${url}`).toEqual([]);
  }
}

/** 24 pages in one test: about 45 s on an idle machine, 2.4-3.8 min on this loaded 2-core machine. */
const PAGES_TIMEOUT = 480_000;

test.describe.serial("validators over every public page", () => {
  for (const screen of [
    { name: "desktop", viewport: DESKTOP },
    { name: "phone", viewport: PHONE },
  ]) {
    test.describe(`on a ${screen.name}`, () => {
      test.use({ viewport: screen.viewport });

      test(`as a visitor on a ${screen.name}: axe with its best-practice rules finds nothing`, async ({ page }) => {
        test.setTimeout(PAGES_TIMEOUT);
        await checkPages(page, `visitor-${screen.name}`);
      });

      test(`as a member on a ${screen.name}: axe with its best-practice rules finds nothing`, async ({ page }) => {
        test.setTimeout(PAGES_TIMEOUT);
        await memberViaApi(page, newPerson("Validator"));
        await checkPages(page, `member-${screen.name}`);
      });
    });
  }

  test("the Nu HTML Checker finds no error in the server's HTML of those pages, except those decision 026 excuses", async () => {
    test.setTimeout(120_000);
    const java = await javaVersion();
    if (!java) {
      if (process.env.CI) throw new Error("Java is required in CI for the Nu HTML Checker (apt-get install -y default-jre-headless)");
      console.warn("[e2e] skipping the Nu HTML Checker: no `java` on PATH (apt-get install -y default-jre-headless)");
      test.skip(true, "no Java runtime for the Nu HTML Checker");
    }
    expect(htmlFiles.length, "pages saved by the tests above").toBeGreaterThan(90);
    const errors = await nuErrors(htmlFiles);
    const unexcused = errors
      .filter((m) => !NU_EXCUSED.some((x) => x.message.test(m.message)))
      .map((m) => `${path.basename(decodeURIComponent(m.url ?? ""))}:${m.lastLine ?? "?"}: ${m.message} [${(m.extract ?? "").trim().slice(0, 120)}]`);
    expect(unexcused).toEqual([]);
  });
});
