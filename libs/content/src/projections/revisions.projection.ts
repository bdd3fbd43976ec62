import { type Projection } from '@app/kernel';
import { type RevisionCreated } from '../domain';
import { REVISIONS, type RevisionDoc } from '../application/read-models';

/** Each revision stored whole: reading a space's content is one lookup, never a replay. */
export const revisionsProjection: Projection<RevisionDoc> = {
  name: 'revisions',
  version: 1,
  collection: REVISIONS,
  indexes: [
    {
      fields: [
        ['spaceId', 1],
        ['createdAt', 1],
      ],
    },
  ],
  handles: ['RevisionCreated'],
  idOf: (event) => String(event.data.revisionId),
  evolve(_doc, event) {
    const data = event.data as RevisionCreated['data'];
    return {
      id: data.revisionId,
      spaceId: data.spaceId,
      parents: data.parents,
      type: data.type,
      pages: data.pages,
      files: data.files,
      createdAt: data.createdAt,
      ...(data.mergedFrom ? { mergedFrom: data.mergedFrom } : {}),
      ...(data.createdBy ? { createdBy: data.createdBy } : {}),
    };
  },
};
