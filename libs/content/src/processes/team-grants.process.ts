import { type DomainEvent } from '@app/kernel/domain';
import { type ProcessDefinition, type RecordedEvent } from '@app/kernel';
import { type GrantEvent, type GrantTarget } from '../domain';

export type TeamGrant = { organizationId: string; target: GrantTarget };

export type TeamGrantNoted = DomainEvent<'TeamGrantNoted', { teamId: string } & TeamGrant>;
export type TeamGrantDropped = DomainEvent<'TeamGrantDropped', { teamId: string; targetId: string }>;
export type TeamGrantsWithdrawn = DomainEvent<'TeamGrantsWithdrawn', { teamId: string; grants: TeamGrant[] }>;
export type TeamGrantsEvent = TeamGrantNoted | TeamGrantDropped | TeamGrantsWithdrawn;

export interface TeamGrantsState {
  /** Set once identity reports the team deleted: a grant to it made afterwards is withdrawn at once. */
  deleted: boolean;
  grants: TeamGrant[];
}

const teamGrantee = (event: RecordedEvent) => {
  const grantee = (event.data as GrantEvent['data']).grantee;
  return grantee?.kind === 'team' ? grantee.id : null;
};

/**
 * Withdraws what was shared with a team once the team is deleted, so that no grant points at a team that is gone
 * (lists of a space's teams and their counts stay right). One instance per team notes each grant it holds;
 * identity's `TeamDeleted` is read here as a published fact. `RevokeGrant` does nothing for a grant already gone.
 */
export const teamGrantsProcess: ProcessDefinition<TeamGrantsState, TeamGrantsEvent> = {
  name: 'teamgrants',
  handles: ['AccessGranted', 'AccessRevoked', 'TeamDeleted'],
  instanceOf(event) {
    if (event.type === 'TeamDeleted') return String(event.data.teamId);
    return teamGrantee(event);
  },
  initialState: () => ({ deleted: false, grants: [] }),
  evolve(state, event) {
    switch (event.type) {
      case 'TeamGrantNoted': {
        const { organizationId, target } = event.data;
        const others = state.grants.filter((grant) => grant.target.id !== target.id);
        return { ...state, grants: [...others, { organizationId, target }] };
      }
      case 'TeamGrantDropped':
        return { ...state, grants: state.grants.filter((grant) => grant.target.id !== event.data.targetId) };
      case 'TeamGrantsWithdrawn': {
        const withdrawn = new Set(event.data.grants.map((grant) => grant.target.id));
        return { deleted: true, grants: state.grants.filter((grant) => !withdrawn.has(grant.target.id)) };
      }
      default:
        return state;
    }
  },
  when(state, event) {
    switch (event.type) {
      case 'AccessGranted': {
        const data = event.data as GrantEvent['data'];
        const teamId = data.grantee.id;
        const grant = { organizationId: data.organizationId, target: data.target };
        const noted: TeamGrantNoted = { type: 'TeamGrantNoted', data: { teamId, ...grant } };
        // granted after the team was deleted (the two writes raced): take it back at once
        return state.deleted ? [noted, { type: 'TeamGrantsWithdrawn', data: { teamId, grants: [grant] } }] : [noted];
      }
      case 'AccessRevoked': {
        const data = event.data as GrantEvent['data'];
        return [{ type: 'TeamGrantDropped', data: { teamId: data.grantee.id, targetId: data.target.id } }];
      }
      case 'TeamDeleted':
        return [{ type: 'TeamGrantsWithdrawn', data: { teamId: String(event.data.teamId), grants: state.grants } }];
      default:
        return [];
    }
  },
  commands(_state, event) {
    if (event.type !== 'TeamGrantsWithdrawn') return [];
    return event.data.grants.map((grant) => ({
      type: 'RevokeGrant',
      data: { ...grant, grantee: { kind: 'team', id: event.data.teamId } },
    }));
  },
};
