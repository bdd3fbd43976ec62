import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { type Nodes, type PhrasingContent, type RootContent } from 'mdast';
import type PDFDocument from 'pdfkit';
import { ValidationFailed } from '@app/kernel';

export interface PdfInput {
  title: string;
  pages: { title: string; depth: number; markdown: string }[];
  /** Written as the document's creation date, so the same input gives the same bytes. */
  createdAt?: string;
  /** Tests read the text of the content streams. */
  compress?: boolean;
}

export const PDF_MAX_PAGES = 1000;
export const PDF_MAX_MARKDOWN = 5 * 1024 * 1024;

const FONTS = { body: 'Helvetica', bold: 'Helvetica-Bold', italic: 'Helvetica-Oblique', mono: 'Courier' };
const HEADING_SIZES = [20, 16, 14, 12, 11, 11];
const MARGIN = 56;

/** The built-in PDF fonts only cover Latin-1: anything else becomes a replacement mark instead of broken glyphs. */
const printable = (text: string) => text.replace(/[^\n\t\u0020-\u007e\u00a0-\u00ff]/gu, '?');

function plain(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('children' in node) return (node.children as Nodes[]).map(plain).join('');
  return '';
}

/**
 * Renders pages of markdown as a PDF without a browser: the markdown is parsed (mdast, with GitHub extensions) and
 * laid out with PDFKit's built-in fonts: headings, paragraphs with emphasis, strong, code and links (real link
 * annotations), nested lists, code blocks, quotes, rules and tables; images are named, never fetched.
 */
export function renderPdf(input: PdfInput): Promise<Buffer> {
  if (input.pages.length > PDF_MAX_PAGES) throw new ValidationFailed(`a PDF holds at most ${PDF_MAX_PAGES} pages`);
  const total = input.pages.reduce((sum, page) => sum + page.markdown.length, 0);
  if (total > PDF_MAX_MARKDOWN) throw new ValidationFailed(`the pages are too large for one PDF (${total} characters)`);
  // PDFKit, with its fonts and layout engine, is loaded by the first export rather than at start: it weighs several
  // megabytes of heap that a service which never exports a PDF would carry for nothing.
  return import('pdfkit').then(({ default: PDFKit }) => layOut(PDFKit, input));
}

function layOut(PDFKit: typeof PDFDocument, input: PdfInput): Promise<Buffer> {
  const created = input.createdAt ? new Date(input.createdAt) : new Date(0);
  const doc = new PDFKit({
    margin: MARGIN,
    compress: input.compress ?? true,
    info: { Title: printable(input.title), Creator: 'Quire', CreationDate: created, ModDate: created },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const width = () => doc.page.width - MARGIN * 2;

  const inline = (nodes: PhrasingContent[], indent: number, base = FONTS.body, size = 11) => {
    const runs: { text: string; font: string; link?: string }[] = [];
    const walk = (list: PhrasingContent[], font: string, link?: string) => {
      for (const node of list) {
        switch (node.type) {
          case 'text':
            runs.push({ text: node.value, font, link });
            break;
          case 'strong':
            walk(node.children, font === FONTS.italic ? FONTS.bold : FONTS.bold, link);
            break;
          case 'emphasis':
            walk(node.children, font === FONTS.bold ? FONTS.bold : FONTS.italic, link);
            break;
          case 'delete':
            walk(node.children, font, link);
            break;
          case 'inlineCode':
            runs.push({ text: node.value, font: FONTS.mono, link });
            break;
          case 'break':
            runs.push({ text: '\n', font, link });
            break;
          case 'link':
            walk(node.children, font, node.url);
            break;
          case 'image':
            runs.push({ text: `[image: ${node.alt ?? ''}] (${node.url})`, font: FONTS.italic, link });
            break;
          default:
            runs.push({ text: plain(node as Nodes), font, link });
        }
      }
    };
    walk(nodes, base);
    if (runs.length === 0) return;
    runs.forEach((run, index) => {
      doc
        .font(run.font)
        .fontSize(size)
        .fillColor(run.link ? '#1a55b3' : 'black');
      const options = {
        continued: index < runs.length - 1,
        width: width() - indent,
        ...(run.link ? { link: run.link, underline: true } : { underline: false }),
      };
      if (index === 0) doc.text(printable(run.text), MARGIN + indent, doc.y, options);
      else doc.text(printable(run.text), options);
    });
    doc.fillColor('black');
  };

  const block = (node: RootContent, indent: number) => {
    switch (node.type) {
      case 'heading':
        doc.moveDown(0.5);
        doc.font(FONTS.bold).fontSize(HEADING_SIZES[node.depth - 1] ?? 11);
        doc.text(printable(plain(node)), MARGIN + indent, doc.y, { width: width() - indent });
        doc.moveDown(0.3);
        break;
      case 'paragraph':
        inline(node.children, indent);
        doc.moveDown(0.5);
        break;
      case 'list':
        node.children.forEach((item, index) => {
          const marker = node.ordered ? `${(node.start ?? 1) + index}.` : '-';
          doc
            .font(FONTS.body)
            .fontSize(11)
            .text(marker, MARGIN + indent, doc.y, { continued: false, width: 24 });
          doc.moveUp();
          item.children.forEach((child) => {
            if (child.type === 'paragraph') {
              inline(child.children, indent + 18);
            } else block(child, indent + 18);
          });
        });
        doc.moveDown(0.3);
        break;
      case 'code': {
        doc.font(FONTS.mono).fontSize(9);
        const text = printable(node.value);
        const height = doc.heightOfString(text, { width: width() - indent - 12 }) + 8;
        if (doc.y + height > doc.page.height - MARGIN) doc.addPage();
        doc
          .save()
          .rect(MARGIN + indent, doc.y, width() - indent, height)
          .fill('#f2f2f2')
          .restore();
        doc.fillColor('black').text(text, MARGIN + indent + 6, doc.y + 4, { width: width() - indent - 12 });
        doc.moveDown(0.8);
        break;
      }
      case 'blockquote':
        doc.fillColor('#555555');
        node.children.forEach((child) => block(child, indent + 16));
        doc.fillColor('black');
        break;
      case 'thematicBreak':
        doc.moveDown(0.3);
        doc
          .moveTo(MARGIN + indent, doc.y)
          .lineTo(MARGIN + width(), doc.y)
          .strokeColor('#999999')
          .stroke();
        doc.moveDown(0.6);
        break;
      case 'table':
        node.children.forEach((row, index) => {
          const cells = row.children.map((cell) => plain(cell).trim());
          doc.font(index === 0 ? FONTS.bold : FONTS.body).fontSize(10);
          doc.text(printable(cells.join('  |  ')), MARGIN + indent, doc.y, { width: width() - indent });
        });
        doc.moveDown(0.5);
        break;
      case 'html':
        doc
          .font(FONTS.mono)
          .fontSize(9)
          .text(printable(node.value), MARGIN + indent, doc.y, { width: width() - indent });
        doc.moveDown(0.5);
        break;
      case 'definition':
      case 'footnoteDefinition':
      case 'yaml':
        break;
      default: {
        const text = plain(node as Nodes);
        if (text)
          doc
            .font(FONTS.body)
            .fontSize(11)
            .text(printable(text), MARGIN + indent, doc.y, { width: width() - indent });
      }
    }
  };

  doc
    .font(FONTS.bold)
    .fontSize(24)
    .text(printable(input.title || 'Change request'), { width: width() });
  doc.moveDown(1);
  input.pages.forEach((page, index) => {
    if (index > 0) doc.addPage();
    const indent = Math.min(page.depth, 4) * 12;
    doc.font(FONTS.bold).fontSize(Math.max(14, 22 - page.depth * 2));
    doc.text(printable(page.title), MARGIN + indent, doc.y, { width: width() - indent });
    doc.moveDown(0.6);
    const tree = fromMarkdown(page.markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
    for (const node of tree.children) block(node, indent);
  });
  doc.end();
  return done;
}
