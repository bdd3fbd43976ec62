import { type Projection } from '@app/kernel';
import {
  GRANTEE_GRANTS,
  GRANTS,
  type GrantDoc,
  type GranteeGrantsDoc,
  grantDocId,
  granteeGrantsDocId,
} from '../application/read-models';
import { type GrantEvent } from '../domain';

/** One document per grant, listed per space or collection (`GET .../permissions/users|teams`). */
export const grantsProjection: Projection<GrantDoc> = {
  name: 'content_grants',
  version: 1,
  collection: GRANTS,
  indexes: [
    {
      fields: [
        ['targetId', 1],
        ['granteeKind', 1],
        ['grantedAt', 1],
      ],
    },
  ],
  handles: ['AccessGranted', 'AccessRevoked'],
  idOf: (recorded) => {
    const event = recorded as unknown as GrantEvent;
    return grantDocId(event.data.target.id, event.data.grantee.kind, event.data.grantee.id);
  },
  evolve(doc, recorded) {
    const event = recorded as unknown as GrantEvent;
    switch (event.type) {
      case 'AccessGranted': {
        const { organizationId, target, grantee, role, grantedAt } = event.data;
        return {
          id: grantDocId(target.id, grantee.kind, grantee.id),
          organizationId,
          targetKind: target.kind,
          targetId: target.id,
          granteeKind: grantee.kind,
          granteeId: grantee.id,
          role,
          // a changed role keeps the grant's place in the list
          grantedAt: doc?.grantedAt ?? grantedAt,
        };
      }
      case 'AccessRevoked':
        return null;
      default:
        return doc;
    }
  },
};

/** One document per user or team and organization: every space and collection they were given, with the role. */
export const granteeGrantsProjection: Projection<GranteeGrantsDoc> = {
  name: 'grantee_grants',
  version: 1,
  collection: GRANTEE_GRANTS,
  handles: ['AccessGranted', 'AccessRevoked'],
  idOf: (recorded) => {
    const event = recorded as unknown as GrantEvent;
    return granteeGrantsDocId(event.data.organizationId, event.data.grantee.kind, event.data.grantee.id);
  },
  evolve(doc, recorded) {
    const event = recorded as unknown as GrantEvent;
    const { organizationId, target, grantee } = event.data;
    const current: GranteeGrantsDoc = doc ?? {
      id: granteeGrantsDocId(organizationId, grantee.kind, grantee.id),
      organizationId,
      spaces: {},
      collections: {},
    };
    const field = target.kind === 'space' ? 'spaces' : 'collections';
    const targets = { ...current[field] };
    if (event.type === 'AccessGranted') targets[target.id] = event.data.role;
    else delete targets[target.id];
    const next = { ...current, [field]: targets };
    return Object.keys(next.spaces).length + Object.keys(next.collections).length === 0 ? null : next;
  },
};
