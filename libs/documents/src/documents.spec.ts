import Ajv from 'ajv';
import { documentToMarkdown } from './document-to-markdown';
import { markdownToDocument } from './markdown-to-document';
import { referencesOf } from './references';

// The official schema of a JSON document, to check that what Quire serves is one.
const spec = require('gitbook-spec-0137/spec/openapi.json');
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema(spec, 'gitbook');
const isJsonDocument = ajv.compile({ $ref: 'gitbook#/components/schemas/JSONDocument' });

const RICH = [
  '# Title',
  '',
  'Some **bold**, _italic_, ~~gone~~ and `code` words with a [link](https://example.com/a) and a [page](/pages/p1).',
  '',
  '## Lists',
  '',
  '- one',
  '- two',
  '  1. nested',
  '',
  '3. three',
  '4. four',
  '',
  '- [x] done',
  '- [ ] to do',
  '',
  '```ts',
  'const a = 1;',
  '',
  'const b = 2;',
  '```',
  '',
  '> quoted',
  '',
  '---',
  '',
  '![a cat](/files/f1)',
].join('\n');

describe('markdown and JSON documents', () => {
  it('turns markdown into a document the official schema accepts', () => {
    const document = markdownToDocument(RICH);
    expect(isJsonDocument(document)).toBe(true);
    expect(document.nodes.map((node) => node.type)).toEqual([
      'heading-1',
      'paragraph',
      'heading-2',
      'list-unordered',
      'list-ordered',
      'list-unordered',
      'code',
      'blockquote',
      'divider',
      'paragraph',
    ]);
  });

  it('keeps marks, links to pages and URLs, code lines and list starts', () => {
    const [, paragraph, , , ordered, tasks, code] = markdownToDocument(RICH).nodes;
    const leaves = paragraph.nodes!.flatMap((node) => (node.object === 'text' ? node.leaves : []));
    expect(leaves.find((leaf) => leaf.text === 'bold')!.marks).toEqual([{ object: 'mark', type: 'bold' }]);
    expect(leaves.find((leaf) => leaf.text === 'code')!.marks).toEqual([{ object: 'mark', type: 'code' }]);
    const links = paragraph.nodes!.filter((node) => node.object === 'inline');
    expect(links.map((link) => link.data!.ref)).toEqual([
      { kind: 'url', url: 'https://example.com/a' },
      { kind: 'page', page: 'p1' },
    ]);
    expect(ordered.data).toEqual({ start: 3 });
    expect(tasks.nodes!.map((item) => (item as { data?: unknown }).data)).toEqual([
      { checked: true },
      { checked: false },
    ]);
    expect(code.data).toEqual({ syntax: 'ts' });
    expect(code.nodes).toHaveLength(3);
  });

  it('writes a document back as the same markdown', () => {
    const once = documentToMarkdown(markdownToDocument(RICH));
    expect(documentToMarkdown(markdownToDocument(once))).toBe(once);
    for (const fragment of ['**bold**', '_italic_', '~~gone~~', '`code`', '[page](/pages/p1)', '```ts', '> quoted']) {
      expect(once).toContain(fragment);
    }
    expect(once).toContain('3. three');
    expect(once).toContain('- [x] done');
    expect(once).toContain('![a cat](/files/f1)');
  });

  it('reads documents written by other clients: hints, emoji and unknown blocks keep their words', () => {
    const text = (value: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] });
    const markdown = documentToMarkdown({
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'hint',
          data: { style: 'info' },
          nodes: [{ object: 'block', type: 'paragraph', nodes: [text('Careful')] }],
        },
        {
          object: 'block',
          type: 'paragraph',
          nodes: [text('Nice '), { object: 'inline', type: 'emoji', data: { code: '1f44d' } }],
        },
        {
          object: 'block',
          type: 'tabs',
          data: {},
          nodes: [
            {
              object: 'block',
              type: 'tabs-item',
              data: { title: 'A' },
              nodes: [{ object: 'block', type: 'paragraph', nodes: [text('Inside a tab')] }],
            },
          ],
        },
      ],
    });
    expect(markdown).toBe('> Careful\n\nNice 👍\n\nInside a tab');
  });

  it('escapes text that would otherwise read as markdown', () => {
    const markdown = documentToMarkdown({
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'paragraph',
          nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: '*not bold*', marks: [] }] }],
        },
      ],
    });
    expect(markdownToDocument(markdown).nodes[0].nodes).toEqual([
      { object: 'text', leaves: [{ object: 'leaf', text: '*not bold*', marks: [] }] },
    ]);
  });

  it.each([
    [null, /body.document: must be an object/],
    [{ object: 'page', nodes: [] }, /body.document: object must be document/],
    [{ object: 'document', nodes: 'x' }, /body.document.nodes: must be an array/],
    [{ object: 'document', nodes: [{ object: 'text', leaves: [] }] }, /body.document.nodes\[0\]: object must be block/],
    [
      {
        object: 'document',
        nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ text: 1 }] }] }],
      },
      /nodes\[0\].nodes\[0\].leaves\[0\].text: must be a string/,
    ],
  ])('refuses %j naming where it is wrong', (document, message) => {
    expect(() => documentToMarkdown(document, 'body.document')).toThrow(message);
  });

  it('refuses documents nested too deep or too large', () => {
    let nested: Record<string, unknown> = { object: 'block', type: 'paragraph', nodes: [] };
    for (let i = 0; i < 40; i++) nested = { object: 'block', type: 'blockquote', nodes: [nested] };
    expect(() => documentToMarkdown({ object: 'document', nodes: [nested] })).toThrow(/levels deep/);
    const wide = Array.from({ length: 20_001 }, () => ({ object: 'block', type: 'divider' }));
    expect(() => documentToMarkdown({ object: 'document', nodes: wide })).toThrow(/at most 20000 nodes/);
  });

  it('finds the references of a body: links, images and definitions, each target once', () => {
    const markdown = [
      'See [one](/pages/p1), [again](/pages/p1), [the site](https://example.com) and [here](#setup).',
      '',
      '![chart](/files/f1)',
      '',
      '[ref]: https://example.com/defined',
      '',
      '`[not a link](/pages/p9)`',
    ].join('\n');
    expect(referencesOf(markdown)).toEqual([
      { kind: 'page', page: 'p1' },
      { kind: 'url', url: 'https://example.com' },
      { kind: 'anchor', anchor: 'setup' },
      { kind: 'file', file: 'f1' },
      { kind: 'url', url: 'https://example.com/defined' },
    ]);
    expect(referencesOf('plain words only: no link at all [here]')).toEqual([]);
    expect(referencesOf('Mail ada@example.com or visit www.example.com')).toEqual([
      { kind: 'url', url: 'mailto:ada@example.com' },
      { kind: 'url', url: 'http://www.example.com' },
    ]);
    // a reference link and its definition name one target: kept once
    expect(referencesOf('[ref link][r]\n\n[r]: /pages/p2')).toEqual([{ kind: 'page', page: 'p2' }]);
  });
});
