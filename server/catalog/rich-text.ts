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
