/**
 * A tiny SMTP server for the browser tests: the web server sends its email here (SMTP_URL), each
 * message is written as a JSON file {to, subject, text, html, listUnsubscribe...} into E2E_MAIL_DIR, and the tests read
 * them back with waitForMail. The raw MIME text is decoded here (headers, quoted-printable,
 * base64, multipart) since no mail parser is installed.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SMTPServer } from "smtp-server";

export interface CapturedMail {
  /** The envelope recipients, comma separated. */
  to: string;
  subject: string;
  text: string;
  /** The text/html part ("" when the message has none). */
  html: string;
  /** The List-Unsubscribe and List-Unsubscribe-Post headers, when present. */
  listUnsubscribe?: string;
  listUnsubscribePost?: string;
}

// ---------------------------------------------------------------- MIME decoding

interface Part {
  headers: Map<string, string>;
  /** The body as a binary (latin1) string: one character per byte. */
  body: string;
}

function splitPart(raw: string): Part {
  const normalized = raw.replace(/\r\n/g, "\n");
  const end = normalized.indexOf("\n\n");
  const head = end === -1 ? normalized : normalized.slice(0, end);
  const body = end === -1 ? "" : normalized.slice(end + 2);
  const headers = new Map<string, string>();
  // Unfold continuation lines, then split "Name: value".
  for (const line of head.replace(/\n[ \t]+/g, " ").split("\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function bytesToUtf8(binary: string): string {
  return Buffer.from(binary, "latin1").toString("utf8");
}

function decodeQuotedPrintable(binary: string): string {
  const bytes = binary
    .replace(/=\n/g, "")
    .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return bytesToUtf8(bytes);
}

/** RFC 2047 encoded words (=?UTF-8?Q?...?= / =?UTF-8?B?...?=) in a header value. */
function decodeHeader(binary: string): string {
  const decoded = binary
    .replace(/(=\?[^?]+\?[QqBb]\?[^?]*\?=)\s+(?==\?)/g, "$1")
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_m, _charset: string, encoding: string, text: string) => {
      if (encoding.toUpperCase() === "B") return Buffer.from(text, "base64").toString("latin1");
      return text.replace(/_/g, " ").replace(/=([0-9A-Fa-f]{2})/g, (_h, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    });
  return bytesToUtf8(decoded);
}

function param(headerValue: string | undefined, name: string): string | undefined {
  const m = new RegExp(`${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, "i").exec(headerValue ?? "");
  return m ? (m[1] ?? m[2]) : undefined;
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  if (encoding === "quoted-printable") return decodeQuotedPrintable(part.body);
  if (encoding === "base64") return Buffer.from(part.body.replace(/\s+/g, ""), "base64").toString("utf8");
  return bytesToUtf8(part.body);
}

/** The first body of a message (or of its multipart tree) of the given type (text/plain, text/html). */
function bodyOfType(part: Part, wanted: string): string | null {
  const type = part.headers.get("content-type") ?? "text/plain";
  if (/^multipart\//i.test(type)) {
    const boundary = param(type, "boundary");
    if (!boundary) return null;
    const chunks = part.body.split(`--${boundary}`).slice(1);
    for (const chunk of chunks) {
      if (chunk.startsWith("--")) break;
      const text = bodyOfType(splitPart(chunk.replace(/^[ \t]*\n/, "")), wanted);
      if (text !== null) return text;
    }
    return null;
  }
  return type.toLowerCase().startsWith(wanted) ? decodeBody(part).replace(/\n$/, "") : null;
}

/** Decodes a raw RFC 5322 message into its subject, plain text, HTML and unsubscribe headers. */
export function parseRawMessage(raw: Buffer): Omit<CapturedMail, "to"> {
  const part = splitPart(raw.toString("latin1"));
  const header = (name: string) => {
    const value = part.headers.get(name);
    return value === undefined ? undefined : decodeHeader(value);
  };
  return {
    subject: decodeHeader(part.headers.get("subject") ?? ""),
    text: bodyOfType(part, "text/plain") ?? "",
    html: bodyOfType(part, "text/html") ?? "",
    listUnsubscribe: header("list-unsubscribe"),
    listUnsubscribePost: header("list-unsubscribe-post"),
  };
}

/** The first line of an email's text that is a link (the reset link, for example). */
export function firstLink(text: string): string {
  const line = text.split(/\r?\n/).map((l) => l.trim()).find((l) => /^https?:\/\//.test(l));
  if (!line) throw new Error(`no link in the email text:\n${text}`);
  return line;
}

// ---------------------------------------------------------------- the server

export interface MailCapture {
  close(): Promise<void>;
}

/** Accepts mail on host:port (no auth, no TLS) and writes each message into `dir`. */
export async function startMailCapture({ port, dir, host = "127.0.0.1" }: { port: number; dir: string; host?: string }): Promise<MailCapture> {
  mkdirSync(dir, { recursive: true });
  let counter = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    disableReverseLookup: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", (error: Error) => callback(error));
      stream.on("end", () => {
        try {
          const mail: CapturedMail = { to: session.envelope.rcptTo.map((r) => r.address).join(", "), ...parseRawMessage(Buffer.concat(chunks)) };
          const name = `${Date.now()}-${process.pid}-${++counter}`;
          // Written under a temporary name and renamed, so a reader never sees half a file.
          writeFileSync(path.join(dir, `${name}.tmp`), JSON.stringify(mail, null, 2));
          renameSync(path.join(dir, `${name}.tmp`), path.join(dir, `${name}.json`));
          callback(null, "Message captured");
        } catch (error) {
          callback(error instanceof Error ? error : new Error(String(error)));
        }
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  // A connection error later must not crash the test runner.
  server.on("error", () => {});
  return {
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// ---------------------------------------------------------------- reading mail in tests

export function mailDir(): string {
  const dir = process.env.E2E_MAIL_DIR;
  if (!dir) throw new Error("E2E_MAIL_DIR is not set (see playwright.config.ts and tests/e2e/global-setup.ts)");
  return dir;
}

export function readAllMail(dir = mailDir()): CapturedMail[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), "utf8")) as CapturedMail);
}

/** The messages to `to` whose subject contains `subjectIncludes`, oldest first. */
export function mailsMatching(to: string, subjectIncludes: string): CapturedMail[] {
  const wanted = to.toLowerCase();
  return readAllMail().filter((m) => m.to.toLowerCase().split(/,\s*/).includes(wanted) && m.subject.includes(subjectIncludes));
}

/**
 * Polls the mail directory until a message to `to` whose subject contains `subjectIncludes`
 * arrives (the server's outbox worker sends within a second or two); returns the newest one.
 * `after`: how many such messages there were before, so only a newer one counts.
 */
export async function waitForMail(to: string, subjectIncludes: string, timeoutMs = 15_000, after = 0): Promise<CapturedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const matching = mailsMatching(to, subjectIncludes);
    const found = matching.length > after ? matching.pop() : undefined;
    if (found) return found;
    if (Date.now() > deadline) {
      const seen = readAllMail().map((m) => `  ${m.to}: ${m.subject}`);
      throw new Error(`no email to ${to} with "${subjectIncludes}" in the subject within ${timeoutMs} ms; received:\n${seen.join("\n") || "  (none)"}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
