import { type Projection } from '@app/kernel';
import { upcast } from '../application/personal-data/upcaster';
import { MEMBERS, type MemberDoc, memberDocId } from '../application/read-models';
import { type MemberJoined, type MemberRoleChanged, type TeamMemberAdded } from '../domain';

/**
 * One document per membership: who belongs to which organization with which role, and in which teams. No name
 * or address: answers show the member from the `users` read model (older `MemberJoined` events carried both in
 * clear; the upcaster drops them).
 */
export const membersProjection: Projection<MemberDoc> = {
  name: 'members',
  version: 3,
  collection: MEMBERS,
  indexes: [
    {
      fields: [
        ['organizationId', 1],
        ['joinedAt', 1],
      ],
    },
    {
      fields: [
        ['userId', 1],
        ['joinedAt', 1],
      ],
    },
  ],
  handles: ['MemberJoined', 'MemberRoleChanged', 'MemberRemoved', 'TeamMemberAdded', 'TeamMemberRemoved'],
  idOf: (event) => memberDocId(String(event.data.organizationId), String(event.data.userId)),
  evolve(doc, recorded) {
    const event = upcast(recorded);
    switch (event.type) {
      case 'MemberJoined': {
        const data = event.data as MemberJoined['data'];
        return {
          id: memberDocId(data.organizationId, data.userId),
          organizationId: data.organizationId,
          userId: data.userId,
          role: data.role,
          joinedAt: data.joinedAt,
          teams: [],
          ...(data.samlProviderId ? { sso: true } : {}),
        };
      }
      case 'MemberRoleChanged':
        return doc ? { ...doc, role: (event.data as MemberRoleChanged['data']).role } : null;
      case 'TeamMemberAdded': {
        if (!doc) return null;
        const teamId = (event.data as TeamMemberAdded['data']).teamId;
        const teams = doc.teams ?? [];
        return teams.includes(teamId) ? doc : { ...doc, teams: [...teams, teamId] };
      }
      case 'TeamMemberRemoved':
        return doc ? { ...doc, teams: (doc.teams ?? []).filter((teamId) => teamId !== event.data.teamId) } : null;
      case 'MemberRemoved':
        return null;
      default:
        return doc;
    }
  },
};
