import { type Projection } from '@app/kernel';
import { INVITE_LINKS, type InviteLinkDoc } from '../application/read-models';
import { type InviteLinkEvent, type LinkGrant } from '../domain';

function fields(grant: LinkGrant): Pick<InviteLinkDoc, 'kind' | 'role' | 'level' | 'targetId'> {
  if ('role' in grant) return { kind: 'organization', role: grant.role };
  return { kind: grant.target.kind, level: grant.level, targetId: grant.target.id };
}

/** The live invite links, one document each, by link id (the hash of the link's secret). */
export const inviteLinksProjection: Projection<InviteLinkDoc> = {
  name: 'invite_links',
  version: 1,
  collection: INVITE_LINKS,
  indexes: [
    {
      fields: [
        ['organizationId', 1],
        ['kind', 1],
        ['createdAt', 1],
      ],
    },
  ],
  handles: ['InviteLinkCreated', 'InviteLinkChanged', 'InviteLinkDeleted'],
  idOf: (event) => String(event.data.linkId),
  evolve(doc, recorded) {
    const event = recorded as unknown as InviteLinkEvent;
    switch (event.type) {
      case 'InviteLinkCreated':
        return {
          id: event.data.linkId,
          organizationId: event.data.organizationId,
          ...fields(event.data.grant),
          createdAt: event.data.createdAt,
        };
      case 'InviteLinkChanged':
        return doc ? { ...doc, ...fields(event.data.grant) } : null;
      case 'InviteLinkDeleted':
        return null;
      default:
        return doc;
    }
  },
};
