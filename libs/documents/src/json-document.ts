/**
 * The JSON document of the GitBook API (`JSONDocument`): blocks holding blocks, inlines and texts, texts holding
 * leaves with marks. Only the parts Quire reads and writes are typed; anything else passes as `unknown` data.
 */
export interface DocumentMark {
  object: 'mark';
  type: string;
}

export interface DocumentLeaf {
  object: 'leaf';
  text: string;
  marks: DocumentMark[];
}

export interface DocumentText {
  object: 'text';
  leaves: DocumentLeaf[];
}

export interface DocumentInline {
  object: 'inline';
  type: string;
  data?: Record<string, unknown>;
  nodes?: DocumentNode[];
  isVoid?: boolean;
}

export interface DocumentBlock {
  object: 'block';
  type: string;
  data?: Record<string, unknown>;
  nodes?: DocumentNode[];
  isVoid?: boolean;
}

export type DocumentNode = DocumentBlock | DocumentInline | DocumentText;

export interface JsonDocument {
  object: 'document';
  data: Record<string, unknown>;
  nodes: DocumentBlock[];
}

/** Where a link of the document points, as the API's `ContentRef`. */
export type ContentRef =
  | { kind: 'url'; url: string }
  | { kind: 'page'; page: string }
  | { kind: 'file'; file: string }
  | { kind: 'anchor'; anchor: string };

const PAGE_LINK = /^\/pages\/([A-Za-z0-9_-]+)$/;
const FILE_LINK = /^\/files\/([A-Za-z0-9_-]+)$/;

/**
 * What a markdown link target means in Quire's markdown: `/pages/<id>` and `/files/<id>` (what authoring rewrites
 * `./<ref>` links into) name content of the same space, `#name` an anchor, anything else is a URL.
 */
export function refOf(target: string): ContentRef {
  const page = PAGE_LINK.exec(target);
  if (page) return { kind: 'page', page: page[1] };
  const file = FILE_LINK.exec(target);
  if (file) return { kind: 'file', file: file[1] };
  if (target.startsWith('#') && target.length > 1) return { kind: 'anchor', anchor: target.slice(1) };
  return { kind: 'url', url: target };
}

/** The markdown link target of a reference; null when it has none (a user, an OpenAPI spec, ...). */
export function targetOf(ref: unknown): string | null {
  if (!ref || typeof ref !== 'object') return null;
  const value = ref as Record<string, unknown>;
  const text = (key: string) => (typeof value[key] === 'string' ? (value[key] as string) : null);
  switch (value.kind) {
    case 'url':
      return text('url');
    case 'page':
      return text('page') && `/pages/${text('page')}`;
    case 'file':
      return text('file') && `/files/${text('file')}`;
    case 'anchor':
      return text('anchor') && `#${text('anchor')}`;
    default:
      return null;
  }
}
