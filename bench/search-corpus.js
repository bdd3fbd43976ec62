'use strict';
/**
 * A deterministic corpus of documentation pages for the search benchmark (bench/search.js): the same seed always
 * gives the same pages. Words follow a Zipf law (frequency of the word of rank r ∝ 1/r), over a vocabulary whose
 * head is real English (function words, then words common in technical documentation) and whose tail is made-up
 * words built from syllables, so that a few words are in nearly every page ("the", "to", "and"), some in a few
 * percent of them, and most in only a handful. A page is about 1 KB of markdown: a title, an introduction, then
 * two to five sections under `##` headings with paragraphs, sometimes a list or a code block.
 */

const FUNCTION_WORDS = (
  'the of and to a in is that for it as with be on not this are by or from at an which can you will if your ' +
  'all more when there has have one also but these their other was may each only should into than then use ' +
  'used so its we they any must after before how what where both some such no new same most first two'
).split(' ');

const DOCUMENTATION_WORDS = (
  'data user server file request page configuration value service default api access set example token ' +
  'project space content version update system client time error name field list key change option support ' +
  'create information response code run build release deploy team account event query search index test ' +
  'setting application report database storage cluster network policy permission role admin message log ' +
  'feature workflow pipeline integration endpoint resource schema document section limit cache session ' +
  'install guide section security authentication authorization password encryption certificate domain ' +
  'container kubernetes docker image registry backup restore migration upgrade monitoring metric alert ' +
  'dashboard chart export import sync webhook plugin extension template theme layout editor preview ' +
  'publish draft review comment merge branch commit repository history label tag status priority task ' +
  'invoice billing payment subscription plan customer order product inventory shipping address contact'
).split(' ');

const SYLLABLES = (
  'ka ri to mu sen dal vor pi ne lo ta gri fen bel zu mar kin tos ra vel qua dor shi pen lum tar ex ob ' +
  'cor val mis tri ana pel gon fra sul dre vin hal cas ber lin mon ter por sta ven'
).split(' ');

/** mulberry32: a small, fast, seeded pseudo-random generator (deterministic across runs and machines). */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The vocabulary, most frequent first: real words, then `size` made-up ones, all distinct. */
function vocabulary(size) {
  const words = [...FUNCTION_WORDS, ...new Set(DOCUMENTATION_WORDS)];
  const seen = new Set(words);
  const next = random(7);
  while (words.length < size) {
    const count = 2 + Math.floor(next() * 2);
    let word = '';
    for (let i = 0; i < count; i++) word += SYLLABLES[Math.floor(next() * SYLLABLES.length)];
    if (!seen.has(word)) {
      seen.add(word);
      words.push(word);
    }
  }
  return words;
}

/** Picks words by Zipf rank from a cumulative table (binary search on a uniform draw). */
function zipf(words, exponent) {
  const cumulative = new Float64Array(words.length);
  let total = 0;
  for (let r = 0; r < words.length; r++) cumulative[r] = total += 1 / (r + 1) ** exponent;
  return (next) => {
    const x = next() * total;
    let low = 0;
    let high = words.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cumulative[mid] < x) low = mid + 1;
      else high = mid;
    }
    return words[low];
  };
}

const VOCABULARY = vocabulary(50_000);
const anyWord = zipf(VOCABULARY, 1.0);
// Titles and headings use the documentation words and the tail, not the function words.
const topicWord = zipf(VOCABULARY.slice(FUNCTION_WORDS.length), 0.9);

const capital = (word) => word[0].toUpperCase() + word.slice(1);

function sentence(next) {
  const length = 5 + Math.floor(next() * 12);
  const words = Array.from({ length }, () => anyWord(next));
  return `${capital(words.join(' '))}.`;
}

function paragraph(next) {
  return Array.from({ length: 1 + Math.floor(next() * 4) }, () => sentence(next)).join(' ');
}

function heading(next) {
  return capital(Array.from({ length: 1 + Math.floor(next() * 3) }, () => topicWord(next)).join(' '));
}

/** Page `n` of the corpus (0-based): `{ title, markdown }`, about 1 KB of markdown. */
function corpusPage(n) {
  const next = random(1_000_003 * (n + 1));
  const title = capital(Array.from({ length: 2 + Math.floor(next() * 3) }, () => topicWord(next)).join(' '));
  const blocks = [paragraph(next)];
  const sections = 2 + Math.floor(next() * 4);
  for (let s = 0; s < sections; s++) {
    blocks.push(`## ${heading(next)}`);
    blocks.push(paragraph(next));
    const extra = next();
    if (extra < 0.2) {
      blocks.push(Array.from({ length: 3 }, () => `- ${sentence(next)}`).join('\n'));
    } else if (extra < 0.3) {
      blocks.push(['```sh', `quire ${topicWord(next)} --${topicWord(next)} ${anyWord(next)}`, '```'].join('\n'));
    }
  }
  return { title, markdown: blocks.join('\n\n') };
}

/** The `count` most frequent words of the corpus's vocabulary (for picking query words). */
function frequentWords(count) {
  return VOCABULARY.slice(0, count);
}

/** The rarest word of corpus page `n` (searched in its own space, it finds something there and little elsewhere). */
function rarestWordOf(n) {
  const rank = new Map(VOCABULARY.map((word, r) => [word, r]));
  const words =
    corpusPage(n)
      .markdown.toLowerCase()
      .match(/[a-z]+/g) ?? [];
  return words.reduce((rarest, word) => ((rank.get(word) ?? -1) > (rank.get(rarest) ?? -1) ? word : rarest));
}

/**
 * The queries the adapter benchmarks ask (bench/search-adapter.js, bench/search-first.js), as [kind, text]; the rare
 * word is page `rarePage`'s rarest.
 */
function adapterQueries(rarePage) {
  return [
    ['rare word', rarestWordOf(rarePage)],
    ['common word', 'the'],
    ['two words', 'server configuration'],
    ['phrase', '"of the"'],
    ['prefix', 'conf'],
    ['typing', 'server conf'],
    ['three words', 'deploy the cluster'],
  ];
}

module.exports = { adapterQueries, corpusPage, frequentWords, rarestWordOf, VOCABULARY };
