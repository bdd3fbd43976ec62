/**
 * The content context's public events: collections, spaces (their settings, place, life and current content)
 * and sharing. Each is about one space or collection, and only those who can read it (now) receive it.
 * `RevisionCreated` is internal: a space's content changes publicly with `space.content_updated`.
 */
import { js, ownerKey, pick, publicEventMapper, publicKind } from '@app/kernel';

const defaultLevel = js.enum('admin', 'create', 'review', 'edit', 'comment', 'read', 'inherit', null);
const role = js.enum('admin', 'create', 'review', 'edit', 'comment', 'read');
const placement = { parent: js.nullable(js.ref), sortKey: js.number };
const target = js.object({ object: js.enum('space', 'collection'), id: js.string });
const grantee = js.object({ kind: js.enum('user', 'team'), id: js.string });

const SPACE_SETTINGS = ['title', 'emoji', 'editMode', 'defaultLevel'] as const;
const COLLECTION_SETTINGS = ['title', 'description', 'defaultLevel'] as const;

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const parentRef = (parent: string | null | undefined) => (parent ? { id: parent } : null);

function space(type: string, d: Data, data: Record<string, unknown>, organization?: string) {
  return {
    type,
    organization: organization ?? { ownerOf: ownerKey('space', d.spaceId) },
    subject: { object: 'space', id: d.spaceId as string },
    data,
    audience: { space: d.spaceId as string },
  };
}

function collection(type: string, d: Data, data: Record<string, unknown>, organization?: string) {
  return {
    type,
    organization: organization ?? { ownerOf: ownerKey('collection', d.collectionId) },
    subject: { object: 'collection', id: d.collectionId as string },
    data,
    audience: { collection: d.collectionId as string },
  };
}

function grant(type: string, d: Data, data: Record<string, unknown>) {
  const kind = d.target.kind as 'space' | 'collection';
  return {
    type,
    organization: { ownerOf: ownerKey(kind, d.target.id) },
    subject: { object: kind, id: d.target.id as string },
    data: { target: { object: kind, id: d.target.id }, grantee: { kind: d.grantee.kind, id: d.grantee.id }, ...data },
    audience: kind === 'space' ? { space: d.target.id as string } : { collection: d.target.id as string },
  };
}

export const contentPublicEvents = publicEventMapper({
  kinds: [
    publicKind(
      'collection.created',
      'collection',
      'A collection was created.',
      js.object({ title: js.string, description: js.string, defaultLevel, ...placement }, ['description']),
    ),
    publicKind(
      'collection.updated',
      'collection',
      "A collection's settings changed: `changes` holds the fields set.",
      js.object({ changes: js.partial({ title: js.string, description: js.string, defaultLevel }) }),
    ),
    publicKind(
      'collection.moved',
      'collection',
      'A collection moved to another parent or place among its siblings.',
      js.object({ from: js.nullable(js.ref), ...placement }),
    ),
    publicKind(
      'collection.transferred',
      'collection',
      'A collection (with what it holds) came from another organization; it appears in the feed of the new one.',
      js.object({ from: js.ref, ...placement }),
    ),
    publicKind('collection.deleted', 'collection', 'A collection was deleted (for good).', js.object({})),
    publicKind(
      'space.created',
      'space',
      'A space was created (or duplicated from another: `duplicatedFrom`).',
      js.object(
        {
          title: js.string,
          emoji: js.string,
          defaultLevel,
          editMode: js.enum('live', 'locked'),
          revision: js.ref,
          duplicatedFrom: js.ref,
          ...placement,
        },
        ['duplicatedFrom'],
      ),
    ),
    publicKind(
      'space.updated',
      'space',
      "A space's settings changed: `changes` holds the fields set.",
      js.object({
        changes: js.partial({ title: js.string, emoji: js.string, editMode: js.enum('live', 'locked'), defaultLevel }),
      }),
    ),
    publicKind(
      'space.moved',
      'space',
      'A space moved to another collection or place among its siblings.',
      js.object({ from: js.nullable(js.ref), ...placement }),
    ),
    publicKind(
      'space.transferred',
      'space',
      'A space came from another organization (or collection: then `from` is this organization).',
      js.object({ from: js.ref, ...placement }),
    ),
    publicKind(
      'space.deleted',
      'space',
      'A space was deleted; it can be restored until `purgeAt`.',
      js.object({ purgeAt: js.time }),
    ),
    publicKind('space.restored', 'space', 'A deleted space was restored.', js.object({ parent: js.nullable(js.ref) })),
    publicKind('space.purged', 'space', 'A deleted space was removed for good.', js.object({})),
    publicKind(
      'space.content_updated',
      'space',
      "Another revision became the space's content (a change request was merged).",
      js.object({ revision: js.ref, previousRevision: js.ref }),
    ),
    publicKind(
      'permission.granted',
      'space or collection',
      'A space or collection was shared with a user or a team (or their role there changed).',
      js.object({ target, grantee, role, previousRole: role }, ['previousRole']),
    ),
    publicKind(
      'permission.revoked',
      'space or collection',
      'A user or team lost the role a space or collection was shared with them.',
      js.object({ target, grantee }),
    ),
  ],
  owners: {
    SpaceCreated: (d) => [{ key: ownerKey('space', d.spaceId), organization: d.organizationId }],
    SpaceTransferred: (d) => [{ key: ownerKey('space', d.spaceId), organization: d.organizationId }],
    CollectionCreated: (d) => [{ key: ownerKey('collection', d.collectionId), organization: d.organizationId }],
    CollectionTransferred: (d) => [{ key: ownerKey('collection', d.collectionId), organization: d.organizationId }],
  },
  rules: {
    CollectionCreated: (d) =>
      collection(
        'collection.created',
        d,
        {
          title: d.title,
          ...(d.description !== undefined ? { description: d.description } : {}),
          defaultLevel: d.defaultLevel,
          parent: parentRef(d.parent),
          sortKey: d.sortKey,
        },
        d.organizationId,
      ),
    CollectionUpdated: (d) => collection('collection.updated', d, { changes: pick(d.changes, COLLECTION_SETTINGS) }),
    CollectionMoved: (d) =>
      collection('collection.moved', d, { from: parentRef(d.from), parent: parentRef(d.parent), sortKey: d.sortKey }),
    CollectionTransferred: (d) =>
      collection(
        'collection.transferred',
        d,
        { from: { id: d.from }, parent: parentRef(d.parent), sortKey: d.sortKey },
        d.organizationId,
      ),
    CollectionDeleted: (d) => collection('collection.deleted', d, {}, d.organizationId),
    SpaceCreated: (d) =>
      space(
        'space.created',
        d,
        {
          title: d.title,
          emoji: d.emoji,
          defaultLevel: d.defaultLevel,
          editMode: d.editMode,
          revision: { id: d.revisionId },
          ...(d.duplicatedFrom ? { duplicatedFrom: { id: d.duplicatedFrom } } : {}),
          parent: parentRef(d.parent),
          sortKey: d.sortKey,
        },
        d.organizationId,
      ),
    SpaceUpdated: (d) => space('space.updated', d, { changes: pick(d.changes, SPACE_SETTINGS) }),
    SpaceMoved: (d) =>
      space('space.moved', d, { from: parentRef(d.from), parent: parentRef(d.parent), sortKey: d.sortKey }),
    SpaceTransferred: (d) =>
      space(
        'space.transferred',
        d,
        { from: { id: d.from }, parent: parentRef(d.parent), sortKey: d.sortKey },
        d.organizationId,
      ),
    SpaceDeleted: (d) => space('space.deleted', d, { purgeAt: d.purgeAt }, d.organizationId),
    SpaceRestored: (d) => space('space.restored', d, { parent: parentRef(d.parent) }),
    SpacePurged: (d) => space('space.purged', d, {}, d.organizationId),
    SpaceRevisionChanged: (d) =>
      space('space.content_updated', d, {
        revision: { id: d.revisionId },
        previousRevision: { id: d.previousRevisionId },
      }),
    AccessGranted: (d) =>
      grant('permission.granted', d, { role: d.role, ...(d.previousRole ? { previousRole: d.previousRole } : {}) }),
    AccessRevoked: (d) => grant('permission.revoked', d, {}),
  },
});
