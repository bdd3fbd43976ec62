import { type Projection } from '@app/kernel';
import { TEAMS, TEAM_MEMBERS, type TeamDoc, type TeamMemberDoc, teamMemberDocId } from '../application/read-models';
import { type TeamEvent } from '../domain';

/** One document per team: its title and how many members it has. */
export const teamsProjection: Projection<TeamDoc> = {
  name: 'teams',
  version: 1,
  collection: TEAMS,
  indexes: [
    {
      fields: [
        ['organizationId', 1],
        ['createdAt', 1],
      ],
    },
  ],
  handles: ['TeamCreated', 'TeamRenamed', 'TeamDeleted', 'TeamMemberAdded', 'TeamMemberRemoved'],
  idOf: (event) => String(event.data.teamId),
  evolve(doc, recorded) {
    const event = recorded as unknown as TeamEvent;
    switch (event.type) {
      case 'TeamCreated':
        return {
          id: event.data.teamId,
          organizationId: event.data.organizationId,
          title: event.data.title,
          members: 0,
          createdAt: event.data.createdAt,
        };
      case 'TeamRenamed':
        return doc ? { ...doc, title: event.data.title } : null;
      case 'TeamDeleted':
        return null;
      case 'TeamMemberAdded':
        return doc ? { ...doc, members: doc.members + 1 } : null;
      case 'TeamMemberRemoved':
        return doc ? { ...doc, members: Math.max(0, doc.members - 1) } : null;
      default:
        return doc;
    }
  },
};

/** One document per team membership, with the member's role in the team. */
export const teamMembersProjection: Projection<TeamMemberDoc> = {
  name: 'team_members',
  version: 1,
  collection: TEAM_MEMBERS,
  indexes: [
    {
      fields: [
        ['teamId', 1],
        ['addedAt', 1],
      ],
    },
    {
      fields: [
        ['organizationId', 1],
        ['userId', 1],
      ],
    },
  ],
  handles: ['TeamMemberAdded', 'TeamMemberRoleChanged', 'TeamMemberRemoved'],
  idOf: (event) => teamMemberDocId(String(event.data.teamId), String(event.data.userId)),
  evolve(doc, recorded) {
    const event = recorded as unknown as TeamEvent;
    switch (event.type) {
      case 'TeamMemberAdded':
        return {
          id: teamMemberDocId(event.data.teamId, event.data.userId),
          organizationId: event.data.organizationId,
          teamId: event.data.teamId,
          userId: event.data.userId,
          role: event.data.role,
          addedAt: event.data.addedAt,
        };
      case 'TeamMemberRoleChanged':
        return doc ? { ...doc, role: event.data.role } : null;
      case 'TeamMemberRemoved':
        return null;
      default:
        return doc;
    }
  },
};
