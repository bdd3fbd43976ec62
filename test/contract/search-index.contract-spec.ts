import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { type IndexedPage, type IndexedSection, type SearchIndex } from '@app/kernel';
import Database from 'better-sqlite3';
import { MongoSearchIndex, SEARCH_FORMAT, SqliteSearchIndex } from '@app/search-index';

interface Adapter {
  open(): Promise<SearchIndex>;
  close?(): Promise<void>;
}

let changed = 0;
/** A page; each one made later counts as changed later (recency). */
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

/**
 * The search-index contract: every adapter passes it. SQLite always runs; MongoDB runs when MONGODB_URL is set
 * (for example mongodb://localhost:27017/quire_test), and says why it skips otherwise.
 */
function contract(name: string, adapter: Adapter) {
  describe(name, () => {
    let search: SearchIndex;
    let index: string;

    beforeAll(async () => {
      search = await adapter.open();
    });
    afterAll(async () => {
      await search.close();
      await adapter.close?.();
    });
    beforeEach(async () => {
      index = `t_${randomBytes(6).toString('hex')}`;
      await search.ensureIndex(index);
    });

    const put = (spaceId: string, ...pages: IndexedPage[]) =>
      search.write(
        index,
        pages.map((p) => ({ kind: 'putPage' as const, spaceId, page: p })),
      );
    const ids = async (text: string, spaces = ['s1', 's2']) =>
      (await search.searchPages(index, { text, spaces, group: 'page', offset: 0, limit: 100 })).hits.map(
        (hit) => hit.pageId,
      );

    it('finds words through their stems, whatever their case and diacritics', async () => {
      await put(
        's1',
        page('p1', 'Setup', 'Configuring the runners takes a minute.'),
        page('p2', 'Café', 'Résumé of the Crème brûlée recipe.'),
        page('p3', 'Other', 'Nothing to see.'),
      );
      expect(await ids('configuration')).toEqual(['p1']);
      expect(await ids('RUNNER')).toEqual(['p1']);
      expect(await ids('resume creme')).toEqual(['p2']);
      expect(await ids('CAFE')).toEqual(['p2']);
      expect(await ids('brûlée')).toEqual(['p2']);
    });

    it('matches a quoted phrase only where its words follow each other', async () => {
      await put(
        's1',
        page('p1', 'One', 'Install the agent on every host.'),
        page('p2', 'Two', 'The agent will install itself.'),
      );
      expect(await ids('"install the agent"')).toEqual(['p1']);
      expect((await ids('install agent')).sort()).toEqual(['p1', 'p2']);
    });

    it('reads the last word as a prefix of 4 characters or more, also past its stem', async () => {
      await put('s1', page('p1', 'Auth', 'Authentication with generations of keys.'), page('p2', 'X', 'aut'));
      expect(await ids('auth')).toEqual(['p1']);
      expect(await ids('authenticat')).toEqual(['p1']);
      expect(await ids('generati')).toEqual(['p1']); // its stem is "gener"
      expect(await ids('aut')).toEqual(['p2']); // too short to be a prefix: the word itself only
      expect(await ids('generati ')).toEqual([]); // a finished word is not a prefix
      expect(await ids('generati keys')).toEqual(['p1']); // and only the last word is one
    });

    it('ranks all words over some, then title over heading over body, then the most recent', async () => {
      await put(
        's1',
        page('body', 'Alpha', [{ id: '', title: 'Alpha', body: 'about deployment here' }]),
        page('heading', 'Beta', [
          { id: '', title: 'Beta', body: 'intro' },
          { id: 'deployment', title: 'Deployment', body: 'text' },
        ]),
        page('title', 'Deployment guide', 'nothing else'),
        page('older-body', 'Gamma', 'deployment again', '2020-01-01T00:00:00.000Z'),
        page('both', 'Delta', 'deployment of pipelines'),
      );
      expect(await ids('deployment pipelines')).toEqual(['both', 'title', 'heading', 'body', 'older-body']);
    });

    it('lists the matching sections with a snippet where matched words are marked', async () => {
      await put(
        's1',
        page('p1', 'Guide', [
          { id: '', title: 'Guide', body: 'Welcome to the guide.' },
          { id: 'tokens', title: 'Tokens', body: 'Create a token, then keep it secret.' },
          { id: 'other', title: 'Other', body: 'Unrelated words.' },
        ]),
      );
      const [hit] = (
        await search.searchPages(index, { text: 'tokens', spaces: ['s1'], group: 'page', offset: 0, limit: 10 })
      ).hits;
      expect(hit).toMatchObject({ spaceId: 's1', pageId: 'p1', title: 'Guide', path: 'p1' });
      expect(hit.sections).toEqual([
        { id: 'tokens', title: 'Tokens', snippet: 'Create a **token**, then keep it secret.' },
      ]);
      expect(hit.score).toBeGreaterThan(0);
    });

    it('treats any query text as text: index syntax is never an error, punctuation alone finds nothing', async () => {
      await put('s1', page('p1', 'Near and far', 'AND OR NOT near(a b) col:value -minus *star "quoted'));
      for (const text of [
        '"',
        '""',
        '"unclosed',
        '*',
        'NEAR(',
        'near(a b',
        '-',
        ':',
        'col:value',
        'AND',
        'a AND',
        'OR NOT',
        '^',
        '{text}: x',
        '(',
        ')',
        '+',
        '\\',
        "'",
        '!!',
        '\u0000',
        '🙂',
      ]) {
        expect(Array.isArray(await ids(text))).toBe(true);
      }
      expect(await ids('*** --- :::')).toEqual([]);
      expect(await ids('"')).toEqual([]);
      expect(await ids('col:value')).toEqual(['p1']);
      expect(await ids('NEAR(')).toEqual(['p1']);
    });

    it('searches only the spaces named, and counts exactly across pages of results', async () => {
      const many = Array.from({ length: 25 }, (_, i) =>
        page(`p${String(i).padStart(2, '0')}`, `Page ${i}`, 'kubernetes'),
      );
      await put('s1', ...many);
      await put('s2', page('q1', 'Other space', 'kubernetes'));
      await put('s3', page('r1', 'Hidden space', 'kubernetes'));
      const seen: string[] = [];
      for (let offset = 0; offset < 40; offset += 10) {
        const answer = await search.searchPages(index, {
          text: 'kubernetes',
          spaces: ['s1', 's2'],
          group: 'page',
          offset,
          limit: 10,
        });
        expect(answer.total).toBe(26);
        seen.push(...answer.hits.map((hit) => hit.pageId));
      }
      expect(seen).toHaveLength(26);
      expect(new Set(seen).size).toBe(26);
      expect(seen).not.toContain('r1');
      expect(await ids('kubernetes', [])).toEqual([]);
    });

    it('groups hits by space, ranked by their best page, with a few best pages each', async () => {
      await put('s1', page('a1', 'Plain', 'observability'), page('a2', 'Plain too', 'observability'));
      await put('s2', page('b1', 'Observability', 'observability'));
      await put('s3', page('c1', 'Unrelated', 'nothing'));
      const answer = await search.searchSpaces(index, {
        text: 'observability',
        spaces: ['s1', 's2', 's3'],
        group: 'space',
        offset: 0,
        limit: 10,
        pagesPerSpace: 1,
      });
      expect(answer.total).toBe(2);
      expect(answer.hits.map((hit) => [hit.spaceId, hit.pages.map((p) => p.pageId)])).toEqual([
        ['s2', ['b1']],
        ['s1', ['a2']],
      ]);
      const second = await search.searchSpaces(index, {
        text: 'observability',
        spaces: ['s1', 's2', 's3'],
        group: 'space',
        offset: 1,
        limit: 1,
      });
      expect(second.total).toBe(2);
      expect(second.hits.map((hit) => hit.spaceId)).toEqual(['s1']);
    });

    it('ranks one space by field then recency, whatever order the changes were written in, page after page', async () => {
      await put(
        's1',
        page('body-new', 'One', 'a migration here', '2026-03-01T00:00:00.000Z'),
        page('title-old', 'Migrations', 'nothing', '2026-01-01T00:00:00.000Z'),
        page('heading', 'Two', [{ id: 'migrate', title: 'Migrate', body: 'text' }], '2026-02-01T00:00:00.000Z'),
        page('body-old', 'Three', 'migrating slowly', '2026-01-15T00:00:00.000Z'),
        page('other', 'Four', 'unrelated', '2026-04-01T00:00:00.000Z'),
      );
      // written last, changed in between: it goes between the others of its field
      await put('s1', page('body-mid', 'Five', 'migrated', '2026-02-15T00:00:00.000Z'));
      await put('s2', page('elsewhere', 'Migration', 'migration', '2026-05-01T00:00:00.000Z'));
      const order = ['title-old', 'heading', 'body-new', 'body-mid', 'body-old'];
      for (const text of ['migration', 'migrat']) {
        const seen: string[] = [];
        for (let offset = 0; offset < 6; offset += 2) {
          const answer = await search.searchPages(index, { text, spaces: ['s1'], group: 'page', offset, limit: 2 });
          expect(answer.total).toBe(5);
          seen.push(...answer.hits.map((hit) => hit.pageId));
        }
        expect({ text, seen }).toEqual({ text, seen: order });
      }
    });

    it('ranks spaces by their best page for one word, a prefix included, and lists their best pages', async () => {
      await put('s1', page('a1', 'Plain', 'telemetry', '2026-03-01T00:00:00.000Z'));
      await put('s2', page('b1', 'Telemetry', 'x', '2020-01-01T00:00:00.000Z'), page('b2', 'Y', 'telemetry'));
      await put('s3', page('c1', 'Z', [{ id: 'tele', title: 'Telemetrics', body: 'about it' }]));
      await put('s4', page('d1', 'Hidden', 'telemetry'));
      for (const text of ['telemetry', 'telem']) {
        const answer = await search.searchSpaces(index, {
          text,
          spaces: ['s1', 's2', 's3', 'nowhere'],
          group: 'space',
          offset: 0,
          limit: 10,
          pagesPerSpace: 2,
        });
        const expected =
          text === 'telem'
            ? [
                ['s2', ['b1', 'b2']],
                ['s3', ['c1']],
                ['s1', ['a1']],
              ]
            : [
                ['s2', ['b1', 'b2']],
                ['s1', ['a1']],
              ];
        expect({ text, total: answer.total }).toEqual({ text, total: expected.length });
        expect(answer.hits.map((hit) => [hit.spaceId, hit.pages.map((p) => p.pageId)])).toEqual(expected);
      }
    });

    it('replaces a page, deletes pages and spaces, and tells what it holds of a space', async () => {
      await put('s1', page('p1', 'First', 'zeppelin'), page('p2', 'Second', 'zeppelin'));
      await put('s2', page('q1', 'Third', 'zeppelin'));
      await put('s1', page('p1', 'First', 'balloon'));
      expect((await ids('zeppelin')).sort()).toEqual(['p2', 'q1']);
      expect(await ids('balloon')).toEqual(['p1']);
      await search.write(index, [{ kind: 'deletePage', spaceId: 's1', pageId: 'p2' }]);
      expect(await ids('zeppelin')).toEqual(['q1']);
      expect((await search.pagesOf(index, 's1')).map((p) => p.id)).toEqual(['p1']);
      await search.write(index, [{ kind: 'deleteSpace', spaceId: 's2' }]);
      expect(await ids('zeppelin')).toEqual([]);
      expect(await search.pagesOf(index, 's2')).toEqual([]);
    });

    it('puts an index built aside in place of the one in service, with the same answers', async () => {
      const pages = [page('p1', 'Storage', 'Buckets and objects'), page('p2', 'Objects', 'object lifecycle')];
      await put('s1', ...pages);
      const before = await search.searchPages(index, {
        text: 'object',
        spaces: ['s1'],
        group: 'page',
        offset: 0,
        limit: 10,
      });
      const aside = `${index}__rebuild`;
      await search.dropIndex(aside);
      await search.ensureIndex(aside);
      await search.write(
        aside,
        pages.map((p) => ({ kind: 'putPage' as const, spaceId: 's1', page: p })),
      );
      await search.replaceIndex(index, aside);
      const after = await search.searchPages(index, {
        text: 'object',
        spaces: ['s1'],
        group: 'page',
        offset: 0,
        limit: 10,
      });
      expect(after).toEqual(before);
      expect(after.total).toBe(2);
      // the aside is empty and can be built again
      await search.ensureIndex(aside);
      expect(await search.pagesOf(aside, 's1')).toEqual([]);
      await search.write(aside, [{ kind: 'putPage', spaceId: 's1', page: pages[0] }]);
      await search.replaceIndex(index, aside);
      expect(await ids('lifecycle', ['s1'])).toEqual([]);
      expect(await ids('buckets', ['s1'])).toEqual(['p1']);
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'quire-search-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

contract('SQLite FTS5 search index', {
  open: () => Promise.resolve(new SqliteSearchIndex({ file: join(dir, 'search.db') })),
});

// The same contract where every word counts as common: spaces are asked one by one instead of read whole.
contract('SQLite FTS5 search index, asking space by space', {
  open: () => Promise.resolve(new SqliteSearchIndex({ file: join(dir, 'search-probes.db'), fewRows: 0 })),
});

describe('SQLite FTS5 search index file', () => {
  it('is readable by this user only', async () => {
    const file = join(dir, 'private', 'search.db');
    const search = new SqliteSearchIndex({ file });
    await search.ensureIndex('pages');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'private')).mode & 0o777).toBe(0o700);
    await search.close();
  });

  it('empties a file of the older format (one text row per field), which the search projection then replays', async () => {
    const file = join(dir, 'old-format.db');
    const old = new Database(file);
    old.exec(`CREATE TABLE "s_pages_pages" (key INTEGER PRIMARY KEY, space_id TEXT);
      CREATE VIRTUAL TABLE "s_pages_stem" USING fts5(text);
      INSERT INTO "s_pages_pages" VALUES (1, 's1');`);
    old.close();
    const search = new SqliteSearchIndex({ file });
    await search.ensureIndex('pages');
    expect(await search.pagesOf('pages', 's1')).toEqual([]);
    await search.close();
    const reopened = new Database(file, { readonly: true });
    const names = reopened.prepare(`SELECT name FROM sqlite_schema WHERE name LIKE 's\\_%' ESCAPE '\\'`).pluck().all();
    const format = reopened.prepare(`SELECT value FROM search_meta WHERE key = 'format'`).pluck().get();
    reopened.close();
    expect({ names, format }).toEqual({ names: [], format: String(SEARCH_FORMAT) });
  });

  it('keeps recency order when changes keep arriving older than the latest (keys are spread out again)', async () => {
    const search = new SqliteSearchIndex({ file: join(dir, 'respace.db') });
    await search.ensureIndex('pages');
    const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1) + seconds * 1000).toISOString();
    const write = (id: string, seconds: number) =>
      search.write('pages', [{ kind: 'putPage', spaceId: 's1', page: page(id, id, 'quokka', at(seconds)) }]);
    await write('first', 0);
    await write('last', 100_000);
    // each one between the first and the one before it: the free slots halve every time
    for (let n = 0; n < 40; n++) await write(`p${n}`, 50_000 - n * 1000);
    const answer = await search.searchPages('pages', {
      text: 'quokka',
      spaces: ['s1'],
      group: 'page',
      offset: 0,
      limit: 100,
    });
    expect(answer.total).toBe(42);
    expect(answer.hits.map((hit) => hit.pageId)).toEqual([
      'last',
      ...Array.from({ length: 40 }, (_, n) => `p${n}`),
      'first',
    ]);
    await search.close();
  });
});

const mongoUrl = process.env.MONGODB_URL;
if (mongoUrl) {
  contract('MongoDB text search index', {
    async open() {
      const index = new MongoSearchIndex({ url: mongoUrl });
      await index.ping();
      return index;
    },
  });
} else {
  describe.skip('MongoDB text search index (skipped: MONGODB_URL is not set; no MongoDB server can run here)', () => {
    it('passes the same contract when MONGODB_URL points at a server', () => undefined);
  });
}
