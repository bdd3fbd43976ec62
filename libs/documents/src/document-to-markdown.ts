import { gfmToMarkdown } from 'mdast-util-gfm';
import { toMarkdown } from 'mdast-util-to-markdown';
import { type BlockContent, type ListItem, type PhrasingContent, type Root, type RootContent } from 'mdast';
import { ValidationFailed } from '@app/kernel';
import { targetOf } from './json-document';

/** Bounds on a document sent by a client, checked before it is walked. */
export const DOCUMENT_MAX_DEPTH = 32;
export const DOCUMENT_MAX_NODES = 20_000;

type Raw = Record<string, unknown>;

class Reader {
  private count = 0;

  constructor(private readonly field: string) {}

  fail(path: string, message: string): never {
    throw new ValidationFailed(`${this.field}${path}: ${message}`);
  }

  /** The node at `path`, checked to be an object of one of the `objects` kinds. */
  node(value: unknown, path: string, depth: number, objects: string[]): Raw {
    if (++this.count > DOCUMENT_MAX_NODES) this.fail('', `a document may hold at most ${DOCUMENT_MAX_NODES} nodes`);
    if (depth > DOCUMENT_MAX_DEPTH) this.fail(path, `nested more than ${DOCUMENT_MAX_DEPTH} levels deep`);
    if (!value || typeof value !== 'object' || Array.isArray(value)) this.fail(path, 'must be an object');
    const node = value as Raw;
    if (typeof node.object !== 'string' || !objects.includes(node.object)) {
      this.fail(path, `object must be ${objects.join(' or ')}`);
    }
    if ((node.object === 'block' || node.object === 'inline') && typeof node.type !== 'string')
      this.fail(path, 'type must be a string');
    return node;
  }

  children(node: Raw, path: string): unknown[] {
    if (node.nodes === undefined) return [];
    if (!Array.isArray(node.nodes)) this.fail(`${path}.nodes`, 'must be an array');
    return node.nodes as unknown[];
  }
}

const MARK_WRAPPERS: Record<string, 'strong' | 'emphasis' | 'delete'> = {
  bold: 'strong',
  italic: 'emphasis',
  strikethrough: 'delete',
};

function phrasing(reader: Reader, values: unknown[], path: string, depth: number): PhrasingContent[] {
  return values.flatMap((value, index) => {
    const at = `${path}.nodes[${index}]`;
    const node = reader.node(value, at, depth, ['text', 'inline']);
    if (node.object === 'text') return leaves(reader, node, at);
    const data = (node.data && typeof node.data === 'object' ? node.data : {}) as Raw;
    const inner = phrasing(reader, reader.children(node, at), at, depth + 1);
    switch (node.type) {
      case 'link': {
        const url = targetOf(data.ref);
        return url === null ? inner : [{ type: 'link', url, children: inner }];
      }
      case 'inline-image': {
        const url = targetOf(data.ref);
        const alt = typeof data.caption === 'string' ? data.caption : null;
        return url === null ? [] : [{ type: 'image', url, alt }];
      }
      case 'emoji':
        return typeof data.code === 'string'
          ? [{ type: 'text', value: String.fromCodePoint(...codePoints(data.code)) }]
          : inner;
      default:
        return inner;
    }
  });
}

/** An emoji inline names its emoji by hex code points (`1f600`, `1f44d-1f3fb`). */
function codePoints(code: string): number[] {
  const points = code.split('-').map((part) => Number.parseInt(part, 16));
  return points.every((point) => Number.isInteger(point) && point > 0 && point <= 0x10ffff) ? points : [0xfffd];
}

function leaves(reader: Reader, node: Raw, path: string): PhrasingContent[] {
  if (!Array.isArray(node.leaves)) reader.fail(`${path}.leaves`, 'must be an array');
  return (node.leaves as unknown[]).flatMap((value, index) => {
    const at = `${path}.leaves[${index}]`;
    if (!value || typeof value !== 'object') reader.fail(at, 'must be an object');
    const leaf = value as Raw;
    if (typeof leaf.text !== 'string') reader.fail(`${at}.text`, 'must be a string');
    const marks = Array.isArray(leaf.marks)
      ? (leaf.marks as unknown[]).map((one) => (one && typeof one === 'object' ? String((one as Raw).type) : ''))
      : [];
    if (leaf.text.length === 0) return [];
    if (marks.includes('code')) return [{ type: 'inlineCode', value: leaf.text }];
    let content: PhrasingContent = { type: 'text', value: leaf.text };
    for (const type of marks) {
      const wrapper = MARK_WRAPPERS[type];
      if (wrapper) content = { type: wrapper, children: [content] } as PhrasingContent;
    }
    return [content];
  });
}

function flow(reader: Reader, values: unknown[], path: string, depth: number): RootContent[] {
  return values.flatMap((value, index) => block(reader, value, `${path}.nodes[${index}]`, depth));
}

function block(reader: Reader, value: unknown, path: string, depth: number): RootContent[] {
  const node = reader.node(value, path, depth, ['block']);
  const data = (node.data && typeof node.data === 'object' ? node.data : {}) as Raw;
  const children = reader.children(node, path);
  const type = node.type as string;
  const heading = /^heading-([1-3])$/.exec(type);
  if (heading) {
    const depthOf = Number(heading[1]) as 1 | 2 | 3;
    return [{ type: 'heading', depth: depthOf, children: phrasing(reader, children, path, depth + 1) }];
  }
  switch (type) {
    case 'paragraph':
      return [{ type: 'paragraph', children: phrasing(reader, children, path, depth + 1) }];
    case 'list-ordered':
    case 'list-unordered':
    case 'list-tasks': {
      const items: ListItem[] = children.map((child, index) => {
        const at = `${path}.nodes[${index}]`;
        const item = reader.node(child, at, depth + 1, ['block']);
        const itemData = (item.data && typeof item.data === 'object' ? item.data : {}) as Raw;
        return {
          type: 'listItem',
          spread: false,
          checked: typeof itemData.checked === 'boolean' ? itemData.checked : type === 'list-tasks' ? false : null,
          children: flow(reader, reader.children(item, at), at, depth + 2) as BlockContent[],
        };
      });
      const start = typeof data.start === 'number' && Number.isInteger(data.start) ? data.start : null;
      return [{ type: 'list', ordered: type === 'list-ordered', start, spread: false, children: items }];
    }
    case 'code': {
      const lines = children.map((child, index) => {
        const at = `${path}.nodes[${index}]`;
        const line = reader.node(child, at, depth + 1, ['block']);
        return phrasing(reader, reader.children(line, at), at, depth + 2)
          .map((content) => ('value' in content ? content.value : ''))
          .join('');
      });
      const lang = typeof data.syntax === 'string' && /^[\w+#.-]{1,50}$/.test(data.syntax) ? data.syntax : null;
      return [{ type: 'code', lang, value: lines.join('\n') }];
    }
    case 'blockquote':
    case 'hint':
      return [{ type: 'blockquote', children: flow(reader, children, path, depth + 1) as BlockContent[] }];
    case 'divider':
      return [{ type: 'thematicBreak' }];
    default: {
      // blocks markdown cannot express (tabs, tables, embeds, ...) keep what they say: their text and their blocks
      const nested = children.some((child) => child && typeof child === 'object' && (child as Raw).object === 'block');
      if (nested) return flow(reader, children, path, depth + 1);
      const words = phrasing(reader, children, path, depth + 1);
      return words.length > 0 ? [{ type: 'paragraph', children: words }] : [];
    }
  }
}

/**
 * The markdown of a JSON document sent by a client, written by mdast's serializer. `field` names the document
 * in error messages (`body.document`). A document that is not one (wrong `object`, nodes that are not arrays,
 * more than DOCUMENT_MAX_NODES nodes or DOCUMENT_MAX_DEPTH levels) is refused with a ValidationFailed naming where.
 */
export function documentToMarkdown(document: unknown, field = 'document'): string {
  const reader = new Reader(field);
  const root = reader.node(document, '', 0, ['document']);
  if (!Array.isArray(root.nodes)) reader.fail('.nodes', 'must be an array');
  const tree: Root = { type: 'root', children: flow(reader, root.nodes as unknown[], '', 1) };
  return toMarkdown(tree, { extensions: [gfmToMarkdown()], bullet: '-', emphasis: '_', rule: '-' }).replace(/\n+$/, '');
}
