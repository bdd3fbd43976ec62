import { type Projection } from '@app/kernel';
import { upcast } from '../application/personal-data/upcaster';
import { INVITES } from '../application/read-models';
import { type MemberInvited, type MemberJoined, type PersonalText } from '../domain';

/** A pending invite; `invite` is the key of the invited address, and the address is sealed with its own key. */
export interface InviteDoc {
  id: string;
  organizationId: string;
  invite: string;
  email: PersonalText;
  role: string | null;
  invitedAt: string;
  [key: string]: unknown;
}

const inviteDocId = (organizationId: string, invite: string) => `${organizationId}:${invite}`;

/** Pending invites of an organization, by the key of the address; an invite disappears when its address joins. */
export const invitesProjection: Projection<InviteDoc> = {
  name: 'invites',
  version: 2,
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
  idOf(recorded) {
    const event = upcast(recorded);
    const invite = (event.data as MemberInvited['data'] | MemberJoined['data']).invite;
    return typeof invite === 'string' ? inviteDocId(String(event.data.organizationId), invite) : null;
  },
  evolve(_doc, recorded) {
    const event = upcast(recorded);
    if (event.type !== 'MemberInvited') return null;
    const data = event.data as MemberInvited['data'];
    return {
      id: inviteDocId(data.organizationId, data.invite),
      organizationId: data.organizationId,
      invite: data.invite,
      email: data.email,
      role: data.role,
      invitedAt: data.invitedAt,
    };
  },
};
