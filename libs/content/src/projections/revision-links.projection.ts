import { type ContentRef, referencesOf } from '@app/documents';
import { type Projection } from '@app/kernel';
import { type RevisionCreated, allPages } from '../domain';
import { REVISION_LINKS, type RevisionLinksDoc } from '../application/read-models';

/**
 * The references of every revision's pages, with whether each target exists in that revision: a page or a file
 * of the space that is not in it is `broken`. Reading links is then one lookup; the markdown is parsed here, once
 * per distinct page body (see referencesOf), not at request time.
 */
export const revisionLinksProjection: Projection<RevisionLinksDoc> = {
  name: 'revision_links',
  version: 1,
  collection: REVISION_LINKS,
  handles: ['RevisionCreated'],
  idOf: (event) => String(event.data.revisionId),
  evolve(_doc, event) {
    const data = event.data as RevisionCreated['data'];
    const pages = [...allPages(data.pages)];
    const pageIds = new Set(pages.map((page) => page.id));
    const fileIds = new Set(data.files.map((file) => file.id));
    const exists = (ref: ContentRef) =>
      ref.kind === 'page' ? pageIds.has(ref.page) : ref.kind === 'file' ? fileIds.has(ref.file) : true;
    return {
      id: data.revisionId,
      spaceId: data.spaceId,
      references: pages.flatMap((page) =>
        referencesOf(page.markdown).map((ref) => ({ from: page.id, ref, broken: !exists(ref) })),
      ),
    };
  },
};
