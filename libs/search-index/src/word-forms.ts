import porterStemmer from '@stdlib/nlp-porter-stemmer';

/**
 * The forms of a word an index keeps, computed here rather than by the index's tokenizer, so that one index can
 * hold a word both stemmed (for words and phrases) and as written (for prefixes), and so that the words of a text
 * marked in a snippet are exactly those the index matched.
 *
 * A word is a run of letters, digits and combining marks (as in query-text.ts). Folded: decomposed, without its
 * marks, in lower case, and only its letters and digits (a compatibility decomposition can bring others); a word
 * that folds to nothing is no word. Stemmed: Martin Porter's algorithm (1980), the one SQLite FTS5's `porter`
 * tokenizer implements, on words of 3 to 64 characters as FTS5 does.
 */
/** A word (global: callers reset `lastIndex`). */
export const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const ASCII_WORD = /^[A-Za-z0-9]+$/;
const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]+/gu;
const MARKS = /\p{M}/gu;
const STEMMED_MIN = 3;
const STEMMED_MAX = 64;
/** Stems already computed (a language has far fewer words than a corpus has occurrences); emptied when full. */
const CACHE_MAX = 100_000;
const stems = new Map<string, string>();

/** A word folded as every index folds it (empty when nothing of it is a letter or a digit). */
export function foldedWord(word: string): string {
  if (ASCII_WORD.test(word)) return word.toLowerCase();
  return word.normalize('NFKD').replace(MARKS, '').toLowerCase().replace(NOT_LETTER_OR_DIGIT, '');
}

/** The stem of a folded word. */
export function stemOf(folded: string): string {
  if (folded.length < STEMMED_MIN || folded.length > STEMMED_MAX) return folded;
  let stem = stems.get(folded);
  if (stem === undefined) {
    stem = porterStemmer(folded);
    if (stems.size >= CACHE_MAX) stems.clear();
    stems.set(folded, stem);
  }
  return stem;
}

/** The folded words of a text, in order (for indexing: without positions). */
export function foldedWords(text: string): string[] {
  const words: string[] = [];
  for (const match of text.match(WORD) ?? []) {
    const folded = foldedWord(match);
    if (folded !== '') words.push(folded);
  }
  return words;
}
