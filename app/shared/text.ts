/** Text helpers for exhibit pages and addresses. */

export const DESCRIPTION_LIMIT = 500;

/**
 * Cuts `text` to at most `limit` characters at a word boundary (spec: 500 characters).
 * Returns the text unchanged when it already fits.
 */
export function truncateAtWord(text: string, limit = DESCRIPTION_LIMIT): { text: string; truncated: boolean } {
  if (text.length <= limit) return { text, truncated: false };
  const head = text.slice(0, limit + 1);
  const lastSpace = head.search(/\s\S*$/);
  const cut = lastSpace > 0 ? head.slice(0, lastSpace) : text.slice(0, limit);
  return { text: `${cut.replace(/[\s,;:.\u2014-]+$/, "")}…`, truncated: true };
}

/** Lower-case, hyphenated form of a title or name for readable addresses. */
export function slugify(text: string): string {
  return (
    text
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 80) || "item"
  );
}

export function paragraphs(text: string): string[] {
  return text.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
}
