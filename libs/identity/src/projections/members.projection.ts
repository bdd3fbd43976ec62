import { type Projection } from '@app/kernel';
import { MEMBERS, type MemberDoc, memberDocId } from '../application/read-models';
import { type MemberJoined, type MemberRoleChanged, type TeamMemberAdded } from '../domain';

/** One document per membership: who belongs to which organization with which role, and in which teams. */
export const membersProjection: Projection<MemberDoc> = {
  name: 'members',
  version: 2,
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
        ['organizationId', 1],
        ['displayName', 1],
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
  evolve(doc, event) {
    switch (event.type) {
      case 'MemberJoined': {
        const data = event.data as MemberJoined['data'];
        return {
          id: memberDocId(data.organizationId, data.userId),
          organizationId: data.organizationId,
          userId: data.userId,
          role: data.role,
          email: data.email,
          displayName: data.displayName,
          joinedAt: data.joinedAt,
          teams: [],
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
