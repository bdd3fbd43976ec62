import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type IndexedPage, type IndexedSection, type SearchIndex } from '@app/kernel';
import { SqliteSearchIndex } from './sqlite-search-index';
import { foldedWord, stemOf } from './word-forms';

let changed = 0;
function page(id: string, title: string, sections: IndexedSection[] | string, changedAt?: string): IndexedPage {
  changed++;
  return {
    id,
    title,
    path: id,
    sections: typeof sections === 'string' ? [{ id: '', title, body: sections }] : sections,
    changedAt: changedAt ?? new Date(Date.UTC(2026, 0, 1) + changed * 1000).toISOString(),
    digest: `${id}:${changed}`,
  };
}

/** What the SQLite index does beyond the contract (test/contract/search-index.contract-spec.ts). */
describe('SqliteSearchIndex', () => {
  let tiered: SearchIndex;
  let general: SearchIndex;
  beforeEach(async () => {
    tiered = new SqliteSearchIndex({ file: ':memory:' });
    // every query read whole and ranked in SQL: the way queries of many terms go
    general = new SqliteSearchIndex({ file: ':memory:', tieredTerms: 0 });
    for (const index of [tiered, general]) await index.ensureIndex('pages');
  });
  afterEach(async () => {
    await tiered.close();
    await general.close();
  });
  const put = async (spaceId: string, ...pages: IndexedPage[]) => {
    for (const index of [tiered, general]) {
      await index.write(
        'pages',
        pages.map((p) => ({ kind: 'putPage' as const, spaceId, page: p })),
      );
    }
  };
  const pages = async (index: SearchIndex, text: string, spaces = ['s1']) =>
    (await index.searchPages('pages', { text, spaces, group: 'page', offset: 0, limit: 100 })).hits.map(
      (hit) => hit.pageId,
    );

  it('ranks a query of a few terms tier by tier exactly as reading every match does', async () => {
    await put(
      's1',
      page('both-title', 'Cluster upgrade', 'nothing'),
      page('both-heading', 'One', [
        { id: '', title: 'One', body: 'an upgrade' },
        { id: 'cluster', title: 'Cluster', body: 'text' },
      ]),
      page('both-body', 'Two', 'upgrade the cluster'),
      page('one-title', 'Cluster', 'nothing'),
      page('one-body', 'Three', 'upgrading', '2020-01-01T00:00:00.000Z'),
      page('other', 'Four', 'unrelated'),
      page('three', 'Five', 'cluster upgrade notes', '2019-01-01T00:00:00.000Z'),
    );
    await put('s2', page('elsewhere', 'Cluster upgrade notes', 'cluster'));
    const texts = ['cluster upgrade', 'upgrad cluster', 'cluster upgrade notes', '"upgrade the" cluster', 'clus'];
    for (const text of texts) {
      const expected = await pages(general, text);
      expect({ text, found: await pages(tiered, text) }).toEqual({ text, found: expected });
      // and page after page, each page read on its own
      const paged: string[] = [];
      for (let offset = 0; offset < expected.length + 2; offset += 2) {
        const answer = await tiered.searchPages('pages', { text, spaces: ['s1'], group: 'page', offset, limit: 2 });
        expect(answer.total).toBe(expected.length);
        paged.push(...answer.hits.map((hit) => hit.pageId));
      }
      expect({ text, paged }).toEqual({ text, paged: expected });
    }
    expect(await pages(tiered, 'cluster upgrade')).toEqual([
      'both-title',
      'both-heading',
      'both-body',
      'three',
      'one-title',
      'one-body',
    ]);
    await put('s3', page('body-only', 'Six', 'an upgrade'));
    for (const text of texts) {
      for (const [offset, limit] of [
        [0, 10],
        [0, 1],
        [1, 1],
      ]) {
        const spaces = async (index: SearchIndex) => {
          const answer = await index.searchSpaces('pages', {
            text,
            spaces: ['s1', 's2', 's3'],
            group: 'space',
            offset,
            limit,
            pagesPerSpace: 3,
          });
          return { total: answer.total, hits: answer.hits.map((hit) => [hit.spaceId, hit.pages.map((p) => p.pageId)]) };
        };
        expect({ text, offset, limit, found: await spaces(tiered) }).toEqual({
          text,
          offset,
          limit,
          found: await spaces(general),
        });
      }
    }
    // only the first space is placed; the other two are counted
    expect(
      await tiered.searchSpaces('pages', {
        text: 'cluster upgrade',
        spaces: ['s1', 's2', 's3'],
        group: 'space',
        offset: 0,
        limit: 1,
      }),
    ).toMatchObject({ total: 3, hits: [{ spaceId: 's2' }] });
  });

  it('never matches a phrase across two sections, and marks a phrase whole', async () => {
    await put(
      's1',
      page('across', 'A', [
        { id: '', title: 'A', body: 'the end of' },
        { id: 'next', title: 'Next', body: 'the start' },
      ]),
      page('within', 'B', 'most of the words'),
    );
    expect(await pages(tiered, '"of the"')).toEqual(['within']);
    const [hit] = (
      await tiered.searchPages('pages', { text: '"of the"', spaces: ['s1'], group: 'page', offset: 0, limit: 1 })
    ).hits;
    expect(hit.sections).toEqual([{ id: '', title: 'B', snippet: 'most **of the** words' }]);
  });

  it('cuts a snippet of a long section around its first match, a mark cut at the edge of the window', async () => {
    const words = (from: number, to: number) => Array.from({ length: to - from }, (_, n) => `w${from + n}`).join(' ');
    await put(
      's1',
      // the first match 500 words in, a phrase running out of the window, more matches after it
      page('middle', 'M', `${words(0, 500)} needle ${words(501, 519)} golden thread ${words(521, 1000)} needle`),
      // the first match among the last words: the window is the text's last 24 words
      page('end', 'E', `${words(0, 990)} needle ${words(991, 1000)}`),
    );
    const snippets = async (text: string) =>
      Object.fromEntries(
        (await tiered.searchPages('pages', { text, spaces: ['s1'], group: 'page', offset: 0, limit: 10 })).hits.map(
          (hit) => [hit.pageId, hit.sections.map((section) => section.snippet)],
        ),
      );
    expect(await snippets('needle')).toEqual({
      middle: [`…${words(496, 500)} **needle** ${words(501, 519)} golden…`],
      end: [`…${words(976, 990)} **needle** ${words(991, 1000)}`],
    });
    expect((await snippets('needle "w518 golden thread"')).middle).toEqual([
      `…${words(496, 500)} **needle** ${words(501, 518)} **w518 golden**…`,
    ]);
  });

  it('finds the words a long prefix begins, however many there are', async () => {
    const many = Array.from({ length: 40 }, (_, n) => page(`p${n}`, `P${n}`, `prefixword${n.toString(36)}x`));
    await put('s1', ...many, page('few', 'Few', 'otherprefix'));
    expect((await pages(tiered, 'prefixwor')).sort()).toEqual(many.map((p) => p.id).sort());
    expect(await pages(tiered, 'otherpre')).toEqual(['few']);
    expect(await pages(tiered, 'otherprefixz')).toEqual([]);
  });

  it('folds and stems words as the index does', () => {
    expect(['Configuring', 'CONFIGURATION', 'configured'].map((word) => stemOf(foldedWord(word)))).toEqual([
      'configur',
      'configur',
      'configur',
    ]);
    expect(foldedWord('Crème')).toBe('creme');
    expect(foldedWord('\u0301')).toBe('');
    expect(foldedWord('Ⅻ')).toBe('xii');
  });

  it('answers a request made again from what it kept, until the index changes, by this connection or another', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-search-cache-'));
    const file = join(dir, 'search.db');
    const first = new SqliteSearchIndex({ file });
    const second = new SqliteSearchIndex({ file });
    try {
      await first.ensureIndex('pages');
      await second.ensureIndex('pages');
      const ask = (index: SearchIndex) =>
        index.searchPages('pages', { text: 'lighthouse', spaces: ['s1'], group: 'page', offset: 0, limit: 10 });
      const write = (index: SearchIndex, ...written: IndexedPage[]) =>
        index.write(
          'pages',
          written.map((p) => ({ kind: 'putPage' as const, spaceId: 's1', page: p })),
        );
      await write(first, page('p1', 'One', 'lighthouse'));
      const answer = await ask(first);
      expect(await ask(first)).toBe(answer);
      // another set of spaces is another request
      const elsewhere = await first.searchPages('pages', {
        text: 'lighthouse',
        spaces: ['s2'],
        group: 'page',
        offset: 0,
        limit: 10,
      });
      expect(elsewhere.total).toBe(0);
      expect(Object.isFrozen(answer.hits[0].sections)).toBe(true);
      await write(first, page('p2', 'Two', 'lighthouse'));
      expect((await ask(first)).total).toBe(2);
      await write(second, page('p3', 'Three', 'lighthouse'));
      expect((await ask(first)).hits.map((hit) => hit.pageId)).toEqual(['p3', 'p2', 'p1']);
      const uncached = new SqliteSearchIndex({ file, cachedAnswers: 0 });
      const again = await ask(uncached);
      expect(await ask(uncached)).not.toBe(again);
      await uncached.close();
    } finally {
      await first.close();
      await second.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('merges its segments once writes pause after many pages, in slices, with the same answers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-search-tidy-'));
    const file = join(dir, 'search.db');
    const ask = async (index: SearchIndex) => {
      const found = await index.searchSpaces('pages', {
        text: 'cluster',
        spaces: ['s0', 's1', 's2'],
        group: 'space',
        offset: 0,
        limit: 10,
      });
      return JSON.stringify(found);
    };
    // writes pause for a minute before a merge: this one never merges
    const waiting = new SqliteSearchIndex({ file, tidyAfterPages: 20, tidyIdleMs: 60_000 });
    const reopened = new SqliteSearchIndex({ file, tidyAfterPages: 20, tidyIdleMs: 0, cachedAnswers: 0 });
    try {
      await waiting.ensureIndex('pages');
      // one write per page: a segment each, merged level by level as FTS5 goes
      for (let n = 0; n < 40; n++) {
        const text = `the cluster number ${n} holds ${'words '.repeat(n)}`;
        await waiting.write('pages', [
          { kind: 'putPage', spaceId: `s${n % 3}`, page: page(`p${n}`, `Page ${n}`, text) },
        ]);
      }
      const before = await ask(waiting);
      await waiting.close();
      expect(await waiting.settled()).toBe(0);
      // another connection opening the index finds it unmerged, and merges it
      await reopened.ensureIndex('pages');
      expect(await reopened.settled()).toBeGreaterThan(0);
      expect(await ask(reopened)).toBe(before);
      // merged: a few pages more are not worth another merge
      await reopened.write('pages', [{ kind: 'putPage', spaceId: 's0', page: page('p40', 'Page 40', 'the cluster') }]);
      expect(await reopened.settled()).toBe(0);
      expect(JSON.parse(await ask(reopened)).total).toBe(3);
    } finally {
      await reopened.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
