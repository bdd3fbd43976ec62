import { markdownToDocument } from '@app/documents';
import { type PublicUrls, type UrlSigner } from '@app/kernel';
import { type FileNode, type PageNode } from '../../domain';
import { type RevisionDoc } from '../read-models';

export type DocumentFormat = 'markdown' | 'document';

const LAYOUT = {
  width: 'default',
  cover: true,
  coverSize: 'hero',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
} as const;

/** Markdown as the spec's JSON document (a real markdown parse: see libs/documents). */
export const toDocument = markdownToDocument;

/** A page of a revision; its body only in the `format` asked for (markdown when none is given). */
export function presentPage(
  page: PageNode,
  spaceId: string,
  urls: PublicUrls,
  format: DocumentFormat = 'markdown',
): Record<string, unknown> {
  return {
    id: page.id,
    title: page.title,
    ...(page.emoji !== undefined ? { emoji: page.emoji } : {}),
    kind: 'sheet',
    type: 'document',
    urls: { app: `${urls.app}/s/${spaceId}/${page.path}` },
    slug: page.slug,
    path: page.path,
    ...(page.description !== undefined ? { description: page.description } : {}),
    pages: page.pages.map((child) => presentPage(child, spaceId, urls, format)),
    layout: LAYOUT,
    hidden: page.hidden,
    ...(format === 'document' ? { document: toDocument(page.markdown) } : { markdown: page.markdown }),
  };
}

/** Where a file kept by the service is downloaded: a signed address that needs no token. */
export function blobDownloadUrl(key: string, urls: PublicUrls, signer: UrlSigner): string {
  const path = `/blobs/${key}`;
  return `${urls.api}${path}?${signer.sign(path)}`;
}

export function presentFile(file: FileNode, urls: PublicUrls, signer: UrlSigner) {
  return {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    downloadURL: file.blobKey ? blobDownloadUrl(file.blobKey, urls, signer) : file.downloadURL,
    size: file.size,
    ...(file.dimensions ? { dimensions: file.dimensions } : {}),
  };
}

/** The spec's Revision shape. */
export function presentRevision(revision: RevisionDoc, urls: PublicUrls, signer: UrlSigner) {
  return {
    object: 'revision' as const,
    id: revision.id,
    type: revision.type,
    parents: revision.parents,
    pages: revision.pages.map((page) => presentPage(page, revision.spaceId, urls)),
    files: revision.files.map((file) => presentFile(file, urls, signer)),
    reusableContents: [],
    createdAt: revision.createdAt,
    urls: { app: `${urls.app}/s/${revision.spaceId}/~/revisions/${revision.id}` },
  };
}
