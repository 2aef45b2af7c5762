/**
 * The HTML part of every email the site sends: built from the plain text, which stays
 * the one place each email's words are written. Everything is escaped first; then links become
 * anchors, blank lines separate paragraphs, and lines starting with "> " (someone else's words,
 * email-quoting.ts) a blockquote, where their links stay text: a visitor's link is not ours to offer.
 */

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** http(s) links in already escaped text; a trailing full stop or comma stays outside. */
const LINK = /\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)]/g;

function inline(line: string): string {
  return escapeHtml(line).replace(LINK, (url) => `<a href="${url}" style="color:#1f3a5f">${url}</a>`);
}

function block(lines: string[]): string {
  if (lines.every((l) => l === ">" || l.startsWith("> "))) {
    const quoted = lines.map((l) => escapeHtml(l.slice(2))).join("<br>\n");
    return `<blockquote style="margin:0 0 16px;padding:0 0 0 12px;border-left:3px solid #c9a227;color:#444">${quoted}</blockquote>`;
  }
  return `<p style="margin:0 0 16px">${lines.map((l) => inline(l.trim())).join("<br>\n")}</p>`;
}

/** The plain text of an email as a small, escaped HTML document. */
export function htmlFromText(text: string, title: string): string {
  const blocks: string[][] = [];
  let current: string[] = [];
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    const trimmed = line.trimEnd();
    const quoted = trimmed === ">" || trimmed.startsWith("> ");
    const kindChanged = current.length > 0 && quoted !== (current[0] === ">" || current[0].startsWith("> "));
    if (trimmed === "" || kindChanged) {
      if (current.length) blocks.push(current);
      current = [];
      if (trimmed === "") continue;
    }
    current.push(trimmed);
  }
  if (current.length) blocks.push(current);
  return [
    "<!doctype html>",
    '<html lang="en">',
    `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f5f5f4;color:#1c1917;font:16px/1.5 Georgia,serif">',
    '<div style="max-width:600px;margin:0 auto;background:#fff;padding:24px;border-top:6px solid #c9a227">',
    ...blocks.map(block),
    "</div>",
    "</body>",
    "</html>",
  ].join("\n");
}
