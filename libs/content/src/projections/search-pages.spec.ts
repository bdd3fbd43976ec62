import { buildPageTree } from '../domain';
import { reindexSpace, sectionsOf } from './search-pages';

describe('search pages', () => {
  it('cuts a page into the parts of its markdown under each heading, as plain text', () => {
    const markdown = [
      'Intro with **bold** and a [link](https://example.com).',
      '',
      '## Install',
      '',
      'Run `npm i`:',
      '',
      '```sh',
      'npm install quire',
      '```',
      '',
      '### Install',
      '',
      '- one',
      '- two',
      '',
      '# Empty',
      '# Last <b>one</b>',
      'End.',
    ].join('\n');
    expect(sectionsOf(markdown, 'Guide')).toEqual([
      { id: '', title: 'Guide', body: 'Intro with bold and a link.' },
      { id: 'install', title: 'Install', body: 'Run npm i:\nnpm install quire' },
      { id: 'install-1', title: 'Install', body: 'one\ntwo' },
      { id: 'empty', title: 'Empty', body: '' },
      { id: 'last-one', title: 'Last one', body: 'End.' },
    ]);
    expect(sectionsOf('', 'Blank')).toEqual([]);
  });

  it('rewrites only the pages whose indexed content changed, and removes those gone', () => {
    const first = buildPageTree([
      { id: 'a', title: 'A', markdown: 'alpha' },
      { id: 'b', title: 'B', markdown: 'beta', pages: [{ id: 'c', title: 'C', markdown: 'gamma' }] },
    ]);
    const ops = reindexSpace('s', first, [], '2026-01-01T00:00:00.000Z');
    expect(ops.map((op) => (op.kind === 'putPage' ? op.page.path : op.kind))).toEqual(['a', 'b', 'b/c']);
    const indexed = ops.flatMap((op) =>
      op.kind === 'putPage' ? [{ id: op.page.id, digest: op.page.digest, changedAt: op.page.changedAt }] : [],
    );
    const second = buildPageTree([
      { id: 'a', title: 'A', markdown: 'alpha' },
      { id: 'b', title: 'B', markdown: 'beta, changed' },
    ]);
    const next = reindexSpace('s', second, indexed, '2026-02-01T00:00:00.000Z');
    expect(next).toEqual([
      expect.objectContaining({
        kind: 'putPage',
        page: expect.objectContaining({ id: 'b', changedAt: '2026-02-01T00:00:00.000Z' }),
      }),
      { kind: 'deletePage', spaceId: 's', pageId: 'c' },
    ]);
  });
});
