import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { toString } from 'mdast-util-to-string';
import { type BlockContent, type DefinitionContent, type Nodes, type PhrasingContent, type RootContent } from 'mdast';
import {
  type DocumentBlock,
  type DocumentInline,
  type DocumentMark,
  type DocumentNode,
  type DocumentText,
  type JsonDocument,
  refOf,
} from './json-document';

/** Parses markdown (CommonMark with the GitHub extensions) into the mdast syntax tree. */
export function parseMarkdown(markdown: string) {
  return fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

const mark = (type: string): DocumentMark => ({ object: 'mark', type });
const textNode = (text: string, marks: DocumentMark[] = []): DocumentText => ({
  object: 'text',
  leaves: [{ object: 'leaf', text, marks }],
});
const paragraph = (nodes: DocumentNode[]): DocumentBlock => ({
  object: 'block',
  type: 'paragraph',
  nodes: nodes.length > 0 ? nodes : [textNode('')],
});

/** Neighbouring texts become one text with several leaves, as the editor writes them. */
function joinTexts(nodes: DocumentNode[]): DocumentNode[] {
  const joined: DocumentNode[] = [];
  for (const node of nodes) {
    const last = joined[joined.length - 1];
    if (node.object === 'text' && last?.object === 'text') {
      joined[joined.length - 1] = { object: 'text', leaves: [...last.leaves, ...node.leaves] };
    } else {
      joined.push(node);
    }
  }
  return joined;
}

function inlines(children: readonly PhrasingContent[], marks: DocumentMark[] = []): DocumentNode[] {
  return joinTexts(children.flatMap((child) => inline(child, marks)));
}

function inline(node: PhrasingContent, marks: DocumentMark[]): DocumentNode[] {
  switch (node.type) {
    case 'text':
      return [textNode(node.value, marks)];
    case 'strong':
      return inlines(node.children, [...marks, mark('bold')]);
    case 'emphasis':
      return inlines(node.children, [...marks, mark('italic')]);
    case 'delete':
      return inlines(node.children, [...marks, mark('strikethrough')]);
    case 'inlineCode':
      return [textNode(node.value, [...marks, mark('code')])];
    case 'break':
      return [textNode('\n', marks)];
    case 'link': {
      const texts = inlines(node.children, marks).filter(
        (child) => child.object === 'text' || (child.object === 'inline' && child.type === 'inline-image'),
      );
      const link: DocumentInline = {
        object: 'inline',
        type: 'link',
        data: { ref: refOf(node.url) },
        nodes: texts.length > 0 ? texts : [textNode(node.url, marks)],
        isVoid: false,
      };
      return [link];
    }
    case 'image':
      return [
        {
          object: 'inline',
          type: 'inline-image',
          data: { ref: refOf(node.url), ...(node.alt ? { caption: node.alt } : {}) },
          isVoid: true,
        },
      ];
    default:
      // html, footnote references and references without definitions keep their words
      return [textNode(toString(node), marks)];
  }
}

type Flow = RootContent | BlockContent | DefinitionContent;

/** Blocks a quote or a list item may hold; anything else is kept as its text in a paragraph. */
const ESSENTIAL = new Set(['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered']);

function blocks(children: readonly Flow[], allowed?: Set<string>): DocumentBlock[] {
  return children.flatMap((child) => {
    const converted = block(child);
    if (!allowed) return converted;
    return converted.map((one) => (allowed.has(one.type) ? one : paragraph([textNode(toString(child as Nodes))])));
  });
}

function block(node: Flow): DocumentBlock[] {
  switch (node.type) {
    case 'paragraph':
      return [paragraph(inlines(node.children))];
    case 'heading':
      return [
        {
          object: 'block',
          type: `heading-${Math.min(node.depth, 3)}`,
          data: {},
          nodes: inlines(node.children).length > 0 ? inlines(node.children) : [textNode('')],
        },
      ];
    case 'list': {
      const items: DocumentBlock[] = node.children.map((item) => ({
        object: 'block',
        type: 'list-item',
        data: typeof item.checked === 'boolean' ? { checked: item.checked } : {},
        nodes: item.children.length > 0 ? blocks(item.children, LIST_ITEM) : [paragraph([])],
      }));
      return [
        node.ordered
          ? {
              object: 'block',
              type: 'list-ordered',
              data: node.start && node.start !== 1 ? { start: node.start } : {},
              nodes: items,
            }
          : { object: 'block', type: 'list-unordered', data: {}, nodes: items },
      ];
    }
    case 'code':
      return [
        {
          object: 'block',
          type: 'code',
          data: node.lang ? { syntax: node.lang } : {},
          nodes: node.value.split('\n').map((line) => ({
            object: 'block',
            type: 'code-line',
            data: {},
            nodes: [textNode(line)],
          })),
        },
      ];
    case 'blockquote':
      return [{ object: 'block', type: 'blockquote', data: {}, nodes: blocks(node.children, QUOTE) }];
    case 'thematicBreak':
      return [{ object: 'block', type: 'divider', data: {}, isVoid: true }];
    case 'definition':
      return [];
    case 'table':
      // the API's tables are databases of records; a markdown table stays readable as one line per row
      return node.children.map((row) => paragraph([textNode(row.children.map((cell) => toString(cell)).join(' | '))]));
    default: {
      const text = toString(node as Nodes);
      return text.trim().length > 0 ? [paragraph([textNode(text)])] : [];
    }
  }
}

const LIST_ITEM = new Set([...ESSENTIAL, 'divider', 'code', 'blockquote']);
const QUOTE = new Set([...ESSENTIAL, 'divider', 'blockquote']);

/**
 * Markdown as the API's JSON document: headings, paragraphs with bold, italic, strikethrough and code marks,
 * links (to pages and files of the space as content references), images, ordered, unordered and task lists,
 * code blocks with their language, quotes and rules. Tables and raw HTML keep their text.
 */
export function markdownToDocument(markdown: string): JsonDocument {
  return { object: 'document', data: {}, nodes: blocks(parseMarkdown(markdown).children) };
}
