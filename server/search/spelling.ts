/**
 * Spelling help for search: the words of a search text, folded as the database folds them
 * (lower case, no accents), and "Did you mean" built from the titles and names found spelled
 * alike, word by word, with pg_trgm's own measure (shared trigrams of the padded words).
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

function trigrams(word: string): Set<string> {
  const padded = `  ${word} `;
  const set = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) set.add(padded.slice(i, i + 3));
  return set;
}

/** pg_trgm's similarity of two words: shared trigrams over all trigrams. */
export function similarity(a: string, b: string): number {
  const ta = trigrams(a);
  const tb = trigrams(b);
  let shared = 0;
  for (const t of ta) if (tb.has(t)) shared++;
  return shared / (ta.size + tb.size - shared);
}

/**
 * The search text with each word that appears in none of `titles` replaced by the most similar
 * word that does; null when nothing would change.
 */
export function didYouMean(words: string[], titles: string[], minSimilarity = 0.3): string | null {
  const vocabulary = new Set(titles.flatMap((t) => t.split(/[^\p{L}\p{N}]+/u).map(normalizeWord)).filter((w) => w.length > 1));
  let changed = false;
  const corrected = words.map((word) => {
    const folded = normalizeWord(word);
    if (vocabulary.has(folded)) return folded;
    let best: string | null = null;
    let bestScore = minSimilarity;
    for (const candidate of vocabulary) {
      const score = similarity(folded, candidate);
      if (score > bestScore) {
        best = candidate;
        bestScore = score;
      }
    }
    if (!best) return folded;
    changed = true;
    return best;
  });
  return changed ? corrected.join(" ") : null;
}
