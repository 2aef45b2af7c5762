/**
 * Putting visitors' words into the museum's plain-text emails so they cannot pass as the
 * museum's: a name on its own line between quotation marks, a message as a block of lines that
 * each start with "> ". Control characters and line breaks that could start a paragraph of
 * their own are removed here too, whatever validation let through before.
 */

/* eslint-disable no-control-regex -- these patterns exist to find control characters */
/** C0 and C1 controls, line and paragraph separators, bidirectional overrides and isolates. */
const NOT_ON_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same, except tab and line feed (kept inside a quoted block). */
const NOT_IN_A_BLOCK = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/* eslint-enable no-control-regex */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `text` on one line: controls become spaces, at most `max` characters. */
export function oneLine(text: string, max = 200): string {
  const line = text.replace(LONE_SURROGATE, "\ufffd").replace(NOT_ON_ONE_LINE, " ").replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** `text` on one line between quotation marks (its own quotation marks turned into apostrophes). */
export function quotedLine(text: string, max = 200): string {
  return `"${oneLine(text, max).replace(/"/g, "'")}"`;
}

/** Every line of `text` prefixed with "> ", as mail clients quote someone else's words. */
export function quotedBlock(text: string): string {
  return text
    .replace(LONE_SURROGATE, "\ufffd")
    .replace(/\r\n?/g, "\n")
    .replace(NOT_IN_A_BLOCK, " ")
    .split("\n")
    .map((line) => (line.trimEnd() ? `> ${line.trimEnd()}` : ">"))
    .join("\n");
}
