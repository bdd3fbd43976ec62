import { type Projection } from '@app/kernel';
import { ORGANIZATIONS, type OrganizationDoc } from '../application/read-models';
import { type OrganizationCreated, type OrganizationUpdated } from '../domain';

/** Organization settings; `revision` is the organization stream's revision (the ETag). */
export const organizationsProjection: Projection<OrganizationDoc> = {
  name: 'organizations',
  version: 1,
  collection: ORGANIZATIONS,
  handles: [
    'OrganizationCreated',
    'OrganizationUpdated',
    'MemberJoined',
    'MemberRoleChanged',
    'MemberRemoved',
    'MemberInvited',
  ],
  idOf: (event) => String(event.data.organizationId),
  evolve(doc, event) {
    switch (event.type) {
      case 'OrganizationCreated': {
        const data = event.data as OrganizationCreated['data'];
        return {
          id: data.organizationId,
          title: data.title,
          type: data.type,
          emailDomains: data.emailDomains,
          createdAt: data.createdAt,
          sso: false,
          ai: false,
          inviteLinks: false,
          plan: 'free',
          trial: { status: 'notapplicable' },
          revision: event.revision,
        };
      }
      case 'OrganizationUpdated': {
        if (!doc) return null;
        const data = event.data as OrganizationUpdated['data'];
        return { ...doc, ...data.changes, updatedAt: data.updatedAt, revision: event.revision } as OrganizationDoc;
      }
      default:
        // Membership events change the stream's revision, hence the ETag.
        return doc ? { ...doc, revision: event.revision } : null;
    }
  },
};
