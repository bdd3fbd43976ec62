import { inflateSync } from 'node:zlib';
import { renderPdf } from './render-pdf';

const MARKDOWN = [
  '# Heading one',
  '',
  'A paragraph with **strong**, *emphasis*, `code` and [a link](https://example.com/docs).',
  '',
  '- first item',
  '- second item',
  '  1. nested one',
  '',
  '```js',
  'const answer = 42;',
  '```',
  '',
  '> quoted words',
  '',
  '---',
  '',
  '| a | b |',
  '|---|---|',
  '| cell one | cell two |',
  '',
  '![diagram](https://example.com/d.png) emoji 🎉 and 漢字',
].join('\n');

/** The text of a PDF's content streams (uncompressed when asked, inflated otherwise). */
function streams(pdf: Buffer): string {
  const text = pdf.toString('latin1');
  let out = text;
  for (const match of text.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    try {
      out += inflateSync(Buffer.from(match[1], 'latin1')).toString('latin1');
    } catch {
      // not compressed
    }
  }
  return out;
}

/** The text shown by the content streams: PDFKit writes it as `[<hex> kerning <hex>] TJ` arrays. */
function shownText(pdf: Buffer): string {
  const lines: string[] = [];
  for (const match of streams(pdf).matchAll(/\[([^\]]*)\]\s*TJ/g)) {
    lines.push(
      [...match[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((m) => Buffer.from(m[1], 'hex').toString('latin1')).join(''),
    );
  }
  return lines.join('\n');
}

describe('PDF rendering', () => {
  it('renders headings, paragraphs, lists, code, links and tables into a real PDF', async () => {
    const pdf = await renderPdf({
      title: 'My change request',
      pages: [
        { title: 'Getting started', depth: 0, markdown: MARKDOWN },
        { title: 'Child page', depth: 1, markdown: '' },
      ],
      compress: false,
    });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
    const text = shownText(pdf);
    for (const word of [
      'Getting started',
      'Child page',
      'Heading one',
      'second item',
      'const answer = 42;',
      'cell one',
    ]) {
      expect(text).toContain(word);
    }
    expect(pdf.toString('latin1')).toContain('/URI (https://example.com/docs)');
    expect((pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length).toBe(2);
  });

  it('gives the same bytes for the same input', async () => {
    const input = {
      title: 'T',
      pages: [{ title: 'P', depth: 0, markdown: MARKDOWN }],
      createdAt: '2026-01-01T00:00:00Z',
    };
    expect((await renderPdf(input)).equals(await renderPdf(input))).toBe(true);
  });

  it('renders a hundred pages quickly and survives odd input', async () => {
    const started = Date.now();
    const pages = Array.from({ length: 100 }, (_, i) => ({
      title: `Page ${i}`,
      depth: i % 3,
      markdown: MARKDOWN.repeat(3),
    }));
    const pdf = await renderPdf({ title: 'Big', pages });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(pdf.length).toBeGreaterThan(1000);
    const odd = await renderPdf({
      title: '🎉',
      pages: [{ title: 'x'.repeat(500), depth: 9, markdown: `${'> '.repeat(40)}deep\n\n${'w'.repeat(5000)}` }],
    });
    expect(odd.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('refuses inputs too large for one document', () => {
    const pages = Array.from({ length: 1001 }, () => ({ title: 'p', depth: 0, markdown: '' }));
    expect(() => renderPdf({ title: 't', pages })).toThrow(/at most/);
  });
});
