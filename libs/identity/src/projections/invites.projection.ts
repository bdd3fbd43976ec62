import { type Projection } from '@app/kernel';
import { INVITES } from '../application/read-models';
import { type MemberInvited } from '../domain';

export interface InviteDoc {
  id: string;
  organizationId: string;
  email: string;
  role: string | null;
  invitedAt: string;
  [key: string]: unknown;
}

/** Pending invites of an organization; an invite disappears when its address joins. */
export const invitesProjection: Projection<InviteDoc> = {
  name: 'invites',
  version: 1,
  collection: INVITES,
  indexes: [
    {
      fields: [
        ['organizationId', 1],
        ['invitedAt', 1],
      ],
    },
  ],
  handles: ['MemberInvited', 'MemberJoined'],
  idOf: (event) => `${String(event.data.organizationId)}:${String(event.data.email)}`,
  evolve(_doc, event) {
    if (event.type !== 'MemberInvited') return null;
    const data = event.data as MemberInvited['data'];
    return {
      id: `${data.organizationId}:${data.email}`,
      organizationId: data.organizationId,
      email: data.email,
      role: data.role,
      invitedAt: data.invitedAt,
    };
  },
};
