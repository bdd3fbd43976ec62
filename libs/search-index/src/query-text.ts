/**
 * How a user's query text becomes search terms, the same for every adapter. The text is only ever read as words:
 * runs of letters, digits and combining marks. Everything else (quotes aside) separates words, so operators of
 * an index's own syntax (`*`, `NEAR(`, `-`, `:`, `AND`, `^`, parentheses) are plain text and can never be a
 * syntax error. Text between double quotes is a phrase: its words must follow each other.
 */
export type SearchTerm =
  | { kind: 'word'; word: string; /** also matches words it begins (the last word while typing) */ prefix: boolean }
  | { kind: 'phrase'; words: string[] };

/** Words shorter than this are never read as prefixes: `aut` would find half the dictionary. */
export const MIN_PREFIX = 4;
/** Terms kept at most (the rest of a longer query is ignored): bounds the cost of one query. */
export const MAX_TERMS = 32;

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const QUOTES = /["\u201C\u201D\u201E\u00AB\u00BB]/u;

function wordsOf(text: string): string[] {
  return text.match(WORD) ?? [];
}

/** The search terms of a query text (none when it holds no word: punctuation alone finds nothing). */
export function parseQuery(text: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  const parts = text.split(QUOTES);
  parts.forEach((part, index) => {
    const quoted = index % 2 === 1;
    const words = wordsOf(part);
    if (words.length === 0) return;
    if (quoted && words.length > 1) terms.push({ kind: 'phrase', words });
    else for (const word of words) terms.push({ kind: 'word', word, prefix: false });
  });
  // The last word is still being typed unless the text ends after it (a space, a closing quote...).
  const last = terms[terms.length - 1];
  const openEnd = /[\p{L}\p{N}\p{M}]$/u.test(text) && parts.length % 2 === 1;
  if (last?.kind === 'word' && openEnd && [...last.word].length >= MIN_PREFIX) last.prefix = true;
  return terms.slice(0, MAX_TERMS);
}

/** A term as an FTS5 string (double quotes doubled): FTS5 tokenizes it again, as a phrase of its words. */
export function ftsString(words: readonly string[]): string {
  return `"${words.join(' ').replace(/"/g, '""')}"`;
}

/** A word folded as the indexes fold it: lower case, without diacritics. */
export function foldWord(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}
