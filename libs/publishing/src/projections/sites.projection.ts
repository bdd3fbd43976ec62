import { type Projection } from '@app/kernel';
import { SITE_EVENT_TYPES, type SiteEvent, type SiteStructure, emptyStructure, evolveStructure } from '../domain';
import { SITES, type SiteDoc } from '../application/read-models';

const spaceIdsOf = (structure: SiteStructure) => [...new Set(structure.siteSpaces.map((one) => one.spaceId))];

function withoutNulls<T extends Record<string, unknown>>(base: T, changes: Record<string, unknown>): T {
  const next: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete next[key];
    else if (value !== undefined) next[key] = value;
  }
  return next as T;
}

/** Applies one event to a site document (structure changes through the decider's own `evolveStructure`). */
function evolveSite(doc: SiteDoc | null, event: SiteEvent, revision: number): SiteDoc | null {
  if (event.type === 'SiteCreated') {
    const data = event.data;
    return {
      id: data.siteId,
      organizationId: data.organizationId,
      type: data.type,
      title: data.title,
      visibility: data.visibility,
      published: false,
      createdAt: data.createdAt,
      updatedAt: data.createdAt,
      structure: emptyStructure(),
      spaceIds: [],
      shareLinks: [],
      version: revision,
    };
  }
  if (!doc) return null;
  const base = { ...doc, version: revision };
  switch (event.type) {
    case 'SiteDeleted':
      return null;
    case 'SiteUpdated':
      return { ...withoutNulls(base, event.data.changes), updatedAt: event.data.updatedAt };
    case 'SitePublished':
      return { ...base, published: true, updatedAt: event.data.publishedAt };
    case 'SiteUnpublished':
      return { ...base, published: false, updatedAt: event.data.unpublishedAt };
    case 'SiteShareLinkCreated': {
      const { shareLinkId, name, keyHash, createdAt } = event.data;
      return { ...base, shareLinks: [...doc.shareLinks, { id: shareLinkId, name, keyHash, active: true, createdAt }] };
    }
    case 'SiteShareLinkUpdated':
      return {
        ...base,
        shareLinks: doc.shareLinks.map((one) =>
          one.id === event.data.shareLinkId ? { ...one, ...event.data.changes } : one,
        ),
      };
    case 'SiteShareLinkRevoked':
      return { ...base, shareLinks: doc.shareLinks.filter((one) => one.id !== event.data.shareLinkId) };
    case 'SiteAdaptiveSchemaChanged':
      return { ...base, adaptiveSchema: { jsonSchema: event.data.jsonSchema, updatedAt: event.data.updatedAt } };
    case 'SiteCustomized':
      return { ...base, customization: event.data.customization, updatedAt: event.data.updatedAt };
    default: {
      const structure = evolveStructure(doc.structure, event);
      return { ...base, structure, spaceIds: spaceIdsOf(structure) };
    }
  }
}

export const sitesProjection: Projection<SiteDoc> = {
  name: 'sites',
  version: 1,
  collection: SITES,
  indexes: [
    {
      fields: [
        ['organizationId', 1],
        ['createdAt', 1],
      ],
    },
  ],
  handles: SITE_EVENT_TYPES,
  idOf: (event) => String(event.data.siteId),
  evolve: (doc, event) => evolveSite(doc, event as unknown as SiteEvent, event.revision),
};
