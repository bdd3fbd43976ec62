const { corpusPage } = require('../../../../bench/search-corpus') as {
  corpusPage: (n: number) => { title: string; markdown: string };
};
import { buildPageTree } from '../domain';
import { parsedSectionsOf, plainSectionsOf, reindexSpace, sectionsOf } from './search-pages';

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

  it('reads plain markdown by lines exactly as the parser does, and leaves the rest to the parser', () => {
    const samples = [
      '',
      'Just text.',
      'Intro line one\nline two   \n\n## Setup ##\n\nRun **this** and *that*, `code` here.',
      '# A\n## A\n### A\ntext',
      '- one\n- two\n  continued\n\n1. first\n2) second\n\n* star item',
      'Para\n- item right after\n\n```sh\nnpm i\n\nmore\n```\n\n~~~\nunclosed fence',
      'An ![alt text](img.png) and a [link **bold**](https://x.y/z) and ~~gone~~ words.',
      'snake_case_word and _emphasis_ and __strong__ and 2 * 3 * 4',
      '``double``',
      '` padded `',
      'a [ref] link',
      '[ref]: https://example.com',
      '> quote',
      '| a | b |\n|---|---|',
      'Title\n=====',
      'Hard  \nbreak',
      '    indented code',
      '#nospace',
      '***',
      'Tom &amp; Jerry',
      'escaped \\* star',
      '- [ ] task',
      'Crème brûlée, naïve café; 東京 and emoji 🙂 text.',
    ];
    for (let n = 0; n < 300; n++) samples.push(corpusPage(n).markdown);
    let plain = 0;
    for (const markdown of samples) {
      const read = plainSectionsOf(markdown, 'Page');
      if (read === null) continue;
      plain++;
      expect({ markdown, sections: read }).toEqual({ markdown, sections: parsedSectionsOf(markdown, 'Page') });
    }
    expect(plain).toBeGreaterThan(300);
    for (const markdown of ['a [ref] link', '> quote', 'Title\n=====', 'Hard  \nbreak', 'Tom &amp; Jerry']) {
      expect(plainSectionsOf(markdown, 'Page')).toBeNull();
    }
  });
});
