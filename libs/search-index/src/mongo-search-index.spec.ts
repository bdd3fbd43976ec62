import { fold, snippetOf } from './mongo-search-index';
import { parseQuery } from './query-text';

// The parts of the MongoDB adapter that run in the service; the rest runs in the contract suite with a server.
describe('MongoDB search index, service side', () => {
  it('folds words as the text index does: lower case, no diacritics', () => {
    expect(fold('Crème BRÛLÉE Ångström')).toBe('creme brulee angstrom');
  });

  it('marks the words a query found and keeps a short text whole', () => {
    expect(snippetOf('Create a token, then keep it secret.', parseQuery('tokens'))).toBe(
      'Create a **token**, then keep it secret.',
    );
    expect(snippetOf('Résumé of the rules', parseQuery('resume'))).toBe('**Résumé** of the rules');
    expect(snippetOf('Nothing here', [])).toBe('Nothing here');
  });

  it('cuts a long text to a window of words around the first match', () => {
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`);
    words[40] = 'kubernetes';
    const snippet = snippetOf(words.join(' '), parseQuery('kubernetes'));
    expect(snippet).toBe(`…${words.slice(36, 60).join(' ').replace('kubernetes', '**kubernetes**')}`);
    const early = snippetOf(['kubernetes', ...words.slice(1)].join(' '), parseQuery('kubernetes'));
    expect(early).toBe(`**kubernetes** ${words.slice(1, 24).join(' ')}…`);
  });
});
