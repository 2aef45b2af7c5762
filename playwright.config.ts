/**
 * Browser tests in Debian's Chromium against the production build on a fresh DATA_DIR
 * (PGlite, or PostgreSQL when DATABASE_URL is set). Without Chromium: an error in CI, a skip
 * with a printed reason elsewhere.
 */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  if (process.env.CI) throw new Error(`Chromium is required in CI but ${CHROMIUM} does not exist`);
  console.warn(`[e2e] skipping browser tests: ${CHROMIUM} not found (apt-get install -y chromium)`);
}

const PORT = Number(process.env.E2E_PORT ?? 4319);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "museum-e2e-"));
// Email goes to the capture server of tests/e2e/global-setup.ts, which writes each message into
// mailDir. Chosen here (the config is evaluated before globalSetup) and handed on via process.env
// to globalSetup and the test workers, which load this config again and must keep the same one.
const SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 4325);
const mailDir = process.env.E2E_MAIL_DIR ?? mkdtempSync(path.join(tmpdir(), "museum-e2e-mail-"));
process.env.E2E_MAIL_DIR = mailDir;
// The staff console's tests read the first admin's one-time link from here (admin:create --link-file).
process.env.E2E_DATA_DIR = dataDir;
process.env.E2E_SMTP_PORT = String(SMTP_PORT);

export default defineConfig({
  testDir: "tests/e2e",
  // Apart per run (scripts/test.mjs runs PGlite, then PostgreSQL): a failed test's trace names its database.
  outputDir: process.env.E2E_OUTPUT_DIR ?? "test-results",
  testMatch: hasChromium ? "**/*.spec.ts" : [],
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: false,
  workers: 1,
  // One retry in CI: a test that passes only on its second try is reported as flaky, not hidden.
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? "line" : "list",
  // The slowest spec files are named at the end of every run: where CI's minutes go.
  reportSlowTests: { max: 8, threshold: 60_000 },
  timeout: 30_000,
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // Recording a trace for every test and dropping it when the test passes costs about 15% of
    // the browser tests' time (docs/benchmarks.md, "CI"). In CI a failed test is tried again with
    // a trace (Playwright's advice for CI); a local run, which does not retry, keeps the trace of
    // each failure.
    trace: process.env.CI ? "on-first-retry" : "retain-on-failure",
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: hasChromium
    ? {
        // The first admin is made by the documented command before the site starts (PGlite: one process at a time).
        command: `node build/host/admin-cli.js --email e2e-admin@museum.example --link-file ${JSON.stringify(path.join(dataDir, "admin-link.txt"))} && node build/host/index.js`,
        url: `http://127.0.0.1:${PORT}/readyz`,
        reuseExistingServer: false,
        timeout: 120_000,
        stdout: "ignore",
        stderr: "pipe",
        env: {
          PORT: String(PORT),
          HOST: "127.0.0.1",
          DATA_DIR: dataDir,
          LOG_LEVEL: "warn",
          ENABLE_ERROR_PROBE: "true",
          RATE_LIMIT_RELAXED: "true",
          // Renditions on demand: a background render must not slow the timed steps (tests/integration/rendition-warmer.test.ts covers warming).
          WARM_RENDITIONS: "false",
          NODE_ENV: "production",
          PUBLIC_URL: `http://127.0.0.1:${PORT}`,
          SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
          E2E_MAIL_DIR: mailDir,
          ...(process.env.DATABASE_URL
            ? { DATABASE_URL: process.env.DATABASE_URL, SESSION_SECRET: "e2e-session-secret-0123456789abcdef", SECRETS_KEY: "e2e-secrets-key-0123456789abcdefghij" }
            : {}),
        },
      }
    : undefined,
});
