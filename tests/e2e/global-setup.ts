/**
 * Starts the SMTP capture server the web server sends its email to (SMTP_URL in
 * playwright.config.ts) and returns the teardown that closes it. The mail directory is chosen in
 * playwright.config.ts (Playwright evaluates the config before this runs) and passed here and to
 * the test workers through process.env.E2E_MAIL_DIR.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startMailCapture } from "./mail-capture";

export default async function globalSetup(): Promise<() => Promise<void>> {
  const port = Number(process.env.E2E_SMTP_PORT ?? 4325);
  const dir = process.env.E2E_MAIL_DIR ?? mkdtempSync(path.join(tmpdir(), "museum-e2e-mail-"));
  process.env.E2E_MAIL_DIR = dir;
  const capture = await startMailCapture({ port, dir }).catch((error: unknown) => {
    throw new Error(`the SMTP capture server could not listen on 127.0.0.1:${port} (another test run? set E2E_SMTP_PORT): ${String(error)}`);
  });
  return () => capture.close();
}
