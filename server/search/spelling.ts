/**
 * Spelling help for search: the words of a search text, folded as the database folds them
 * (lower case, no accents), and the text with corrected words put in place of the misspelled
 * ones (the corrections come from the public words in the database, search-service.ts).
 */

/** Letters that lose no accent in Unicode decomposition but do in PostgreSQL's unaccent. */
const FOLD: Record<string, string> = { ß: "ss", æ: "ae", œ: "oe", ø: "o", ł: "l", đ: "d", ð: "d", þ: "th", ı: "i", ħ: "h" };

/** A word in lower case without accents, letters and digits only. */
export function normalizeWord(word: string): string {
  return word
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[ßæœøłđðþıħ]/g, (c) => FOLD[c])
    .replace(/[^\p{L}\p{N}]+/gu, "");
}

/**
 * The words of a search text as typed. Web-search syntax aside: `-word` (left out unless
 * `keepExcluded`) and a lone `or` are not words to look for.
 */
export function queryWords(q: string, { keepExcluded = false } = {}): string[] {
  const words: string[] = [];
  for (const token of q.split(/\s+/)) {
    const excluded = /^["(]*-/.test(token);
    if (excluded && !keepExcluded) continue;
    if (/^or$/i.test(token)) continue;
    words.push(...token.split(/[^\p{L}\p{N}]+/u).filter(Boolean));
  }
  return words;
}

/**
 * `q` with each word that `fixes` corrects replaced, whatever its case and accents; quotes,
 * `-word` and `or` stay where they were.
 */
export function replaceWords(q: string, fixes: Map<string, string>): string {
  return q.replace(/[\p{L}\p{N}]+/gu, (word) => fixes.get(word) ?? word);
}
