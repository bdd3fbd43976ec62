import { documentToMarkdown } from '@app/documents';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { type Nodes } from 'mdast';
import { NotFound, ValidationFailed, newId } from '@app/kernel';
import { type FileNode, type PageInput, type PageNode, buildPageTree } from '@app/content';

export const MAX_CHANGES = 50;
export const MAX_FILES_PER_CHANGE = 20;
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
const TITLE_MAX = 255;
const SLUG_MAX = 100;
const EMOJI_MAX = 50;
const DESCRIPTION_MAX = 1000;

/** A page being edited: the stored page minus what is derived again when the revision is recorded. */
interface WorkPage {
  id: string;
  title: string;
  slug?: string;
  description?: string;
  emoji?: string;
  markdown: string;
  hidden: boolean;
  pages: WorkPage[];
}

export interface PendingBlob {
  bytes: Buffer;
}

export type ChangeOutcome =
  | { object: 'created_page'; ref?: string; page: string }
  | { object: 'updated_page'; page: string }
  | { object: 'deleted_page'; page: string };

export interface AppliedChanges {
  pages: PageInput[];
  files: FileNode[];
  /** Files to store before the revision that names them is recorded. */
  blobs: Map<string, Buffer>;
  insertedFiles: FileNode[];
  outcomes: ChangeOutcome[];
  touched: { created: string[]; updated: string[]; deleted: string[] };
}

export interface ChangeContext {
  /** The content the changes apply to (the change request's current revision). */
  pages: readonly PageNode[];
  files: readonly FileNode[];
  /** Pages of other revisions, for `revert_page` (the default revision is the change request's base). */
  revisionPages(revisionId: string | undefined): Promise<readonly PageNode[]>;
  /** The key a blob will have once stored (its SHA-256). */
  blobKey(bytes: Buffer): string;
}

const PAGE_FIELDS = ['title', 'slug', 'emoji', 'description', 'hidden'] as const;
const ALLOWED: Record<string, readonly string[]> = {
  insert_page: ['operation', 'into', 'at', 'ref', 'document', ...PAGE_FIELDS],
  update_page: ['operation', 'page', 'document', 'into', 'at', ...PAGE_FIELDS],
  delete_page: ['operation', 'page'],
  revert_page: ['operation', 'page', 'revision', 'block'],
  insert_files: ['operation', 'files'],
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const length = (text: string) => [...text].length;

function toWork(page: PageNode): WorkPage {
  return {
    id: page.id,
    title: page.title,
    slug: page.slug,
    ...(page.description !== undefined ? { description: page.description } : {}),
    ...(page.emoji !== undefined ? { emoji: page.emoji } : {}),
    markdown: page.markdown,
    hidden: page.hidden,
    pages: page.pages.map(toWork),
  };
}

/** Strict base64 (standard or URL-safe alphabet, padding optional): Node's decoder would skip bad characters. */
export function decodeBase64(text: string, where: string): Buffer {
  const compact = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact) || compact.replace(/=+$/, '').length % 4 === 1) {
    throw new ValidationFailed(`${where}: base64 is not valid base64`);
  }
  return Buffer.from(compact, compact.includes('-') || compact.includes('_') ? 'base64url' : 'base64');
}

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  json: 'application/json',
  csv: 'text/csv',
  zip: 'application/zip',
};

function guessContentType(name: string): string {
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return (extension && CONTENT_TYPES[extension]) || 'application/octet-stream';
}

function parseMarkdown(markdown: string) {
  return fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

function plainText(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('children' in node) return (node.children as Nodes[]).map(plainText).join('');
  return '';
}

/** The title a page gets when none is given: its first heading, else "Untitled". */
function titleFrom(markdown: string): string {
  const heading = parseMarkdown(markdown).children.find((node) => node.type === 'heading');
  const text = heading ? plainText(heading).trim() : '';
  return text ? [...text].slice(0, TITLE_MAX).join('') : 'Untitled';
}

/**
 * Applies a batch of content changes (the spec's `updateChangeRequestContent`) to a change request's content, in
 * order, all or nothing: the first invalid change throws, naming its index, and nothing is stored. Pages and files
 * created earlier in the batch can be named by their `ref` in later changes and in markdown links (`./<ref>`).
 */
export async function applyContentChanges(
  changes: readonly unknown[],
  context: ChangeContext,
): Promise<AppliedChanges> {
  if (!Array.isArray(changes) || changes.length < 1 || changes.length > MAX_CHANGES) {
    throw new ValidationFailed(`changes must hold 1 to ${MAX_CHANGES} changes`);
  }
  const roots: WorkPage[] = context.pages.map(toWork);
  const files: FileNode[] = [...context.files];
  const blobs = new Map<string, Buffer>();
  const insertedFiles: FileNode[] = [];
  const outcomes: ChangeOutcome[] = [];
  const refs = new Map<string, { kind: 'page' | 'file'; id: string }>();
  const created = new Set<string>();
  const updated = new Set<string>();
  const deleted = new Set<string>();

  const locate = (id: string): { page: WorkPage; siblings: WorkPage[]; parent: WorkPage | null } | null => {
    const walk = (list: WorkPage[], parent: WorkPage | null): ReturnType<typeof locate> => {
      for (const page of list) {
        if (page.id === id) return { page, siblings: list, parent };
        const found = walk(page.pages, page);
        if (found) return found;
      }
      return null;
    };
    return walk(roots, null);
  };
  const contains = (page: WorkPage, id: string): boolean => page.pages.some((c) => c.id === id || contains(c, id));

  for (const [index, change] of changes.entries()) {
    const where = `changes[${index}]`;
    if (!isObject(change)) throw new ValidationFailed(`${where} must be an object`);
    const operation = change.operation;
    if (typeof operation !== 'string' || !ALLOWED[operation]) {
      throw new ValidationFailed(`${where}.operation must be one of ${Object.keys(ALLOWED).join(', ')}`);
    }
    const unknown = Object.keys(change).filter((key) => !ALLOWED[operation].includes(key));
    if (unknown.length > 0) {
      throw new ValidationFailed(`${where}: ${unknown.slice(0, 5).join(', ')} not supported in ${operation}`);
    }
    const pageId = (field: string): string => {
      const value = change[field];
      if (typeof value !== 'string' || value.length === 0)
        throw new ValidationFailed(`${where}.${field} must be a page id`);
      const ref = refs.get(value);
      return ref?.kind === 'page' ? ref.id : value;
    };
    const existing = (field: string) => {
      const id = pageId(field);
      const found = locate(id);
      if (!found) throw new ValidationFailed(`${where}.${field}: page ${id} is not in the change request`);
      return found;
    };
    const target = (): WorkPage[] => {
      const into = change.into;
      if (into === undefined || into === null) return roots;
      if (typeof into !== 'string') throw new ValidationFailed(`${where}.into must be a page id or null`);
      const ref = refs.get(into);
      const parent = locate(ref?.kind === 'page' ? ref.id : into);
      if (!parent) throw new ValidationFailed(`${where}.into: page ${into} is not in the change request`);
      return parent.page.pages;
    };
    const position = (siblings: WorkPage[]): number => {
      const at = change.at;
      if (at === undefined) return siblings.length;
      if (typeof at !== 'number' || !Number.isInteger(at) || at < 0 || at > siblings.length) {
        throw new ValidationFailed(`${where}.at must be an integer from 0 to ${siblings.length}`);
      }
      return at;
    };
    const markdownOf = (required: boolean): string | undefined => {
      const document = change.document;
      if (document === undefined) {
        if (required) throw new ValidationFailed(`${where}.document is required`);
        return undefined;
      }
      if (!isObject(document)) throw new ValidationFailed(`${where}.document must be an object`);
      if (Object.keys(document).length === 0) return '';
      if (typeof document.markdown === 'string' && Object.keys(document).length === 1) return document.markdown;
      // a JSON document is stored as the markdown it says (libs/documents), like every other body
      if ('document' in document && Object.keys(document).length === 1) {
        return documentToMarkdown(document.document, `${where}.document.document`);
      }
      throw new ValidationFailed(`${where}.document must be {markdown: string}, {document: JSONDocument} or {}`);
    };
    const attributes = (page: Partial<WorkPage>): void => {
      if (change.title !== undefined) {
        if (typeof change.title !== 'string' || change.title.trim().length === 0 || length(change.title) > TITLE_MAX) {
          throw new ValidationFailed(`${where}.title must have 1 to ${TITLE_MAX} characters`);
        }
        page.title = change.title;
      }
      if (change.slug !== undefined) {
        if (typeof change.slug !== 'string' || length(change.slug) > SLUG_MAX) {
          throw new ValidationFailed(`${where}.slug must have at most ${SLUG_MAX} characters`);
        }
        if (change.slug === '') delete page.slug;
        else page.slug = change.slug;
      }
      if (change.emoji !== undefined) {
        if (typeof change.emoji !== 'string' || length(change.emoji) > EMOJI_MAX) {
          throw new ValidationFailed(`${where}.emoji must have at most ${EMOJI_MAX} characters ("" removes it)`);
        }
        if (change.emoji === '') delete page.emoji;
        else page.emoji = change.emoji;
      }
      if (change.description !== undefined) {
        if (typeof change.description !== 'string' || length(change.description) > DESCRIPTION_MAX) {
          throw new ValidationFailed(`${where}.description must have at most ${DESCRIPTION_MAX} characters`);
        }
        if (change.description === '') delete page.description;
        else page.description = change.description;
      }
      if (change.hidden !== undefined) {
        if (typeof change.hidden !== 'boolean') throw new ValidationFailed(`${where}.hidden must be a boolean`);
        page.hidden = change.hidden;
      }
    };
    const claimRef = (kind: 'page' | 'file', id: string, ref: unknown, field = `${where}.ref`) => {
      if (ref === undefined) return undefined;
      if (typeof ref !== 'string' || !/^[\w.-]{1,100}$/.test(ref)) {
        throw new ValidationFailed(`${field} must be 1 to 100 letters, digits, dots, dashes or underscores`);
      }
      if (refs.has(ref)) throw new ValidationFailed(`${field}: ${ref} is used twice in the batch`);
      refs.set(ref, { kind, id });
      return ref;
    };

    switch (operation) {
      case 'insert_page': {
        const markdown = markdownOf(true)!;
        const siblings = target();
        const at = position(siblings);
        const page: WorkPage = { id: newId(), title: '', markdown, hidden: false, pages: [] };
        attributes(page);
        if (!page.title) page.title = titleFrom(markdown);
        const ref = claimRef('page', page.id, change.ref);
        siblings.splice(at, 0, page);
        created.add(page.id);
        outcomes.push({ object: 'created_page', ...(ref ? { ref } : {}), page: page.id });
        break;
      }
      case 'update_page': {
        const found = existing('page');
        const markdown = markdownOf(false);
        attributes(found.page);
        if (markdown !== undefined) found.page.markdown = markdown;
        if (change.into !== undefined || change.at !== undefined) {
          const into = change.into;
          if (typeof into === 'string') {
            const parentId = refs.get(into)?.id ?? into;
            if (parentId === found.page.id || contains(found.page, parentId)) {
              throw new ValidationFailed(`${where}.into: a page cannot move into itself or one of its sub-pages`);
            }
          }
          const destination = change.into === undefined ? found.siblings : target();
          found.siblings.splice(found.siblings.indexOf(found.page), 1);
          destination.splice(position(destination), 0, found.page);
        }
        if (!created.has(found.page.id)) updated.add(found.page.id);
        outcomes.push({ object: 'updated_page', page: found.page.id });
        break;
      }
      case 'delete_page': {
        const found = existing('page');
        found.siblings.splice(found.siblings.indexOf(found.page), 1);
        const gone = (page: WorkPage) => {
          if (created.has(page.id)) created.delete(page.id);
          else deleted.add(page.id);
          updated.delete(page.id);
          page.pages.forEach(gone);
        };
        gone(found.page);
        outcomes.push({ object: 'deleted_page', page: found.page.id });
        break;
      }
      case 'revert_page': {
        if (change.block !== undefined) {
          throw new ValidationFailed(`${where}.block: reverting single blocks is not supported; revert the whole page`);
        }
        if (change.revision !== undefined && typeof change.revision !== 'string') {
          throw new ValidationFailed(`${where}.revision must be a revision id`);
        }
        const id = pageId('page');
        let source: readonly PageNode[];
        try {
          source = await context.revisionPages(change.revision as string | undefined);
        } catch (error) {
          if (error instanceof NotFound) throw new ValidationFailed(`${where}.revision: ${error.message}`);
          throw error;
        }
        const original = findIn(source, id);
        const current = locate(id);
        if (!original && !current) throw new ValidationFailed(`${where}.page: page ${id} is in neither revision`);
        if (!original) {
          current!.siblings.splice(current!.siblings.indexOf(current!.page), 1);
          deleted.add(id);
          outcomes.push({ object: 'deleted_page', page: id });
          break;
        }
        const restored: Partial<WorkPage> = {
          title: original.page.title,
          slug: original.page.slug,
          markdown: original.page.markdown,
          hidden: original.page.hidden,
        };
        if (current) {
          const page = current.page;
          delete page.description;
          delete page.emoji;
          Object.assign(page, restored);
          if (original.page.description !== undefined) page.description = original.page.description;
          if (original.page.emoji !== undefined) page.emoji = original.page.emoji;
          updated.add(id);
          outcomes.push({ object: 'updated_page', page: id });
        } else {
          const parent = original.parent ? locate(original.parent) : null;
          const siblings = parent ? parent.page.pages : roots;
          const page: WorkPage = { ...toWork({ ...original.page, pages: [] }) };
          siblings.splice(Math.min(original.index, siblings.length), 0, page);
          created.add(id);
          outcomes.push({ object: 'created_page', page: id });
        }
        break;
      }
      case 'insert_files': {
        const list = change.files;
        if (!Array.isArray(list) || list.length < 1 || list.length > MAX_FILES_PER_CHANGE) {
          throw new ValidationFailed(`${where}.files must hold 1 to ${MAX_FILES_PER_CHANGE} files`);
        }
        for (const [fileIndex, file] of list.entries()) {
          const at = `${where}.files[${fileIndex}]`;
          if (!isObject(file)) throw new ValidationFailed(`${at} must be an object`);
          const extra = Object.keys(file).filter(
            (key) => !['base64', 'url', 'name', 'contentType', 'ref'].includes(key),
          );
          if (extra.length > 0) throw new ValidationFailed(`${at}: ${extra.slice(0, 5).join(', ')} not supported`);
          if (typeof file.name !== 'string' || length(file.name) < 1 || length(file.name) > 256) {
            throw new ValidationFailed(`${at}.name must have 1 to 256 characters`);
          }
          if (file.url !== undefined) {
            throw new ValidationFailed(
              `${at}.url: files are uploaded as base64; fetching them from a URL is not supported`,
            );
          }
          if (typeof file.base64 !== 'string') throw new ValidationFailed(`${at}.base64 is required`);
          const bytes = decodeBase64(file.base64, at);
          if (bytes.length > MAX_FILE_BYTES)
            throw new ValidationFailed(`${at}: a file may have at most ${MAX_FILE_BYTES} bytes`);
          if (
            file.contentType !== undefined &&
            (typeof file.contentType !== 'string' || !/^[\w.+-]+\/[\w.+-]+$/.test(file.contentType))
          ) {
            throw new ValidationFailed(`${at}.contentType must be a media type such as image/png`);
          }
          const key = context.blobKey(bytes);
          blobs.set(key, bytes);
          const node: FileNode = {
            id: newId(),
            name: file.name,
            contentType: (file.contentType as string | undefined) ?? guessContentType(file.name),
            size: bytes.length,
            downloadURL: `/blobs/${key}`,
            blobKey: key,
          };
          claimRef('file', node.id, file.ref, `${at}.ref`);
          files.push(node);
          insertedFiles.push(node);
        }
        break;
      }
    }
  }

  if (refs.size > 0) rewriteRefLinks(roots, refs);
  const pages = roots as PageInput[];
  buildPageTree(pages); // the same checks the revision will make (depth, count, titles), before anything is stored
  return {
    pages,
    files,
    blobs,
    insertedFiles,
    outcomes,
    touched: { created: [...created], updated: [...updated], deleted: [...deleted] },
  };
}

function findIn(
  pages: readonly PageNode[],
  id: string,
  parent: string | null = null,
): { page: PageNode; parent: string | null; index: number } | null {
  for (const [index, page] of pages.entries()) {
    if (page.id === id) return { page, parent, index };
    const found = findIn(page.pages, id, page.id);
    if (found) return found;
  }
  return null;
}

/**
 * Links to a page or file created in the same batch name it by its ref (`./<ref>`, or `<ref>`); once it has an
 * id they are written as `/pages/<id>` or `/files/<id>`, the forms every later read resolves.
 */
function rewriteRefLinks(roots: WorkPage[], refs: Map<string, { kind: 'page' | 'file'; id: string }>): void {
  const visit = (page: WorkPage) => {
    if (page.markdown.includes('](') || page.markdown.includes(']:')) page.markdown = rewrite(page.markdown, refs);
    page.pages.forEach(visit);
  };
  roots.forEach(visit);
}

function rewrite(markdown: string, refs: Map<string, { kind: 'page' | 'file'; id: string }>): string {
  const edits: { start: number; end: number; text: string }[] = [];
  const walk = (node: Nodes) => {
    if ((node.type === 'link' || node.type === 'image' || node.type === 'definition') && node.position) {
      const name = node.url.startsWith('./') ? node.url.slice(2) : node.url;
      const ref = refs.get(name);
      const start = node.position.start.offset;
      const end = node.position.end.offset;
      if (ref && start !== undefined && end !== undefined) {
        const source = markdown.slice(start, end);
        const at = source.lastIndexOf(node.url);
        if (at >= 0) {
          edits.push({ start: start + at, end: start + at + node.url.length, text: `/${ref.kind}s/${ref.id}` });
        }
      }
    }
    if ('children' in node) (node.children as Nodes[]).forEach(walk);
  };
  walk(parseMarkdown(markdown));
  let out = markdown;
  for (const edit of edits.sort((a, b) => b.start - a.start)) {
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  }
  return out;
}
