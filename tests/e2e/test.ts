/**
 * Playwright's `test` for the browser tests, with one addition: a browser context the test
 * opened itself (`browser.newContext()`: a second person, a phone, a staff member) is closed when
 * the test ends. Playwright closes the `context` and `page` it hands a test, not these, and a
 * page left open keeps its scripts and timers running in Chromium until the run ends, taking the
 * CPU the next tests need. A context opened in a `beforeAll` belongs to its file, which closes it.
 */
import { test as base } from "@playwright/test";

export { expect } from "@playwright/test";

export const test = base.extend<{ closeContextsOpenedByTheTest: void }>({
  closeContextsOpenedByTheTest: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts());
      await use();
      await Promise.all(browser.contexts().filter((context) => !before.has(context)).map((context) => context.close()));
    },
    { auto: true },
  ],
});
