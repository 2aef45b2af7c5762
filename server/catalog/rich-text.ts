/**
 * Exhibit texts from the console: rich text kept as HTML that can carry no script. Whatever the
 * editor (or a hand-made post) sends is cleaned on the server to a short allow-list of tags
 * (paragraphs, emphasis, lists, headings, quotes, links to http(s) and mailto), with no
 * attribute but a link's address; the plain text derived from it (paragraphs separated by a
 * blank line) is what the public page cuts at 500 characters, the API returns and search reads.
 */
import sanitizeHtml from "sanitize-html";

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ["p", "br", "strong", "em", "b", "i", "u", "s", "ul", "ol", "li", "h3", "h4", "blockquote", "a"],
  allowedAttributes: { a: ["href"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  // Links open in the same tab and tell the target nothing of the museum's page.
  transformTags: { a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer nofollow" }) },
};
OPTIONS.allowedAttributes = { a: ["href", "rel"] };

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Plain text typed without tags becomes paragraphs, so the form also works as a plain textarea. */
function asHtml(input: string): string {
  if (/<[a-z][\s\S]*>/i.test(input)) return input;
  return input
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, "<br>")}</p>`)
    .join("");
}

/** The stored form of an exhibit text: sanitized HTML. */
export function sanitizeRichText(input: string): string {
  return sanitizeHtml(asHtml(input), OPTIONS).trim();
}

/** The plain text of sanitized HTML: block elements become paragraphs separated by a blank line. */
export function plainTextOf(html: string): string {
  const blocks = html
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|h3|h4|li|blockquote)>/gi, "\n\n")
    .replace(/<li>/gi, "• ");
  const text = sanitizeHtml(blocks, { allowedTags: [], allowedAttributes: {} })
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
  return text
    .split(/\n\s*\n/)
    .map((p) => p.replace(/[ \t]+/g, " ").trim())
    .filter(Boolean)
    .join("\n\n");
}

/** A record's text as stored: its plain text and, when formatted, its sanitized HTML (null = plain). */
export interface StoredText {
  plain: string;
  html: string | null;
}

/** The same words, whatever the spacing and line endings (a spreadsheet may change those). */
export const sameWords = (a: string, b: string) => a.replace(/\s+/g, " ").trim() === b.replace(/\s+/g, " ").trim();

/** Formatted text that carries more than its plain paragraphs would give back (emphasis, lists, links...). */
function richerThanPlain(text: StoredText): boolean {
  return text.html !== null && sanitizeRichText(text.plain) !== text.html;
}

/** Plain paragraphs as the console stores them: sanitized HTML and its plain text. */
function fromPlain(plain: string): StoredText {
  const html = sanitizeRichText(plain);
  return { plain: plainTextOf(html), html: html || null };
}

export type TextFromCells = { ok: true; text: StoredText } | { ok: false; column: string; message: string };

/**
 * A record's text from a file's two cells, plain and formatted (`undefined`: the column is not
 * in the file), over the text it has now (empty for a new record). A cell that cannot be applied
 * is an error, never dropped: the plain cell edited over a text formatted in the console (the
 * plain cell cannot carry its formatting), or both cells changed to different words. An empty
 * formatted cell makes the text plain; a column the file does not have leaves the text as it is.
 */
export function textFromCells(current: StoredText, cells: { plain?: string; html?: string }, columns: { plain: string; html: string }): TextFromCells {
  // An empty plain cell beside a formatted one says nothing of its own: the plain text follows from the HTML.
  const plainGiven = cells.plain !== undefined && !(cells.plain.trim() === "" && cells.html);
  const plainChanged = plainGiven && !sameWords(cells.plain!, current.plain);
  const formattedOver = { ok: false as const, column: columns.plain, message: `This text is formatted in the console and the plain ${columns.plain} cell cannot carry its formatting: make the change in ${columns.html}, or empty ${columns.html} to replace the text with plain text.` };
  if (cells.html) {
    const html = sanitizeRichText(cells.html);
    const htmlSame = current.html !== null && (html === current.html || html === sanitizeRichText(current.html));
    if (htmlSame) {
      if (!plainChanged) return { ok: true, text: current };
      return richerThanPlain(current) ? formattedOver : { ok: true, text: fromPlain(cells.plain!) };
    }
    const text = { plain: plainTextOf(html), html: html || null };
    if (plainChanged && !sameWords(cells.plain!, text.plain)) return { ok: false, column: columns.plain, message: `${columns.plain} and ${columns.html} were both changed and say different things: change ${columns.html} only (${columns.plain} follows from it).` };
    return { ok: true, text };
  }
  if (cells.html === "") {
    if (!plainChanged && current.html === null) return { ok: true, text: current };
    return { ok: true, text: { plain: plainChanged ? cells.plain! : current.plain, html: null } };
  }
  if (!plainChanged) return { ok: true, text: current };
  if (current.html === null) return { ok: true, text: { plain: cells.plain!, html: null } };
  return richerThanPlain(current) ? formattedOver : { ok: true, text: fromPlain(cells.plain!) };
}
