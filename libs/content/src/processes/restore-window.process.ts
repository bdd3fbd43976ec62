import { type DomainEvent } from '@app/kernel/domain';
import { type DeadlineEvent, type ProcessDefinition } from '@app/kernel';
import { purgeTime } from '../domain';

export type PurgeDue = DomainEvent<'PurgeDue', { spaceId: string }>;

export interface RestoreWindowState {
  /** When the armed deadline falls, while the space is deleted. */
  purgeAt?: string;
}

export const PURGE_DEADLINE = 'purge';

/**
 * The seven days after a space is deleted: a deadline is armed when it is deleted and disarmed when it is
 * restored; when it passes with the space still deleted, the space is purged. Deadlines are events in the
 * process stream, so a deadline that passed while the service was down fires when it starts again.
 */
export const restoreWindowProcess: ProcessDefinition<RestoreWindowState, PurgeDue> = {
  name: 'spacerestore',
  handles: ['SpaceDeleted', 'SpaceRestored', 'SpacePurged'],
  instanceOf: (event) => String(event.data.spaceId),
  initialState: () => ({}),
  evolve(state, event: PurgeDue | DeadlineEvent) {
    switch (event.type) {
      case 'DeadlineScheduled':
        return { purgeAt: event.data.at };
      case 'DeadlineCancelled':
      case 'PurgeDue':
        return {};
      default:
        return state;
    }
  },
  when(state, event) {
    if (event.type === 'SpaceDeleted') {
      return [
        { type: 'DeadlineScheduled', data: { key: PURGE_DEADLINE, at: purgeTime(String(event.data.deletedAt)) } },
      ];
    }
    // restored, or purged (by this process or otherwise): nothing is left to wait for
    return state.purgeAt !== undefined ? [{ type: 'DeadlineCancelled', data: { key: PURGE_DEADLINE } }] : [];
  },
  onDeadline(state, deadline) {
    // a deadline of an earlier deletion (the space was restored, then deleted again) is not this one
    if (deadline.key !== PURGE_DEADLINE || state.purgeAt !== deadline.at) return [];
    return [{ type: 'PurgeDue', data: { spaceId: deadline.instance } }];
  },
  commands(_state, event) {
    return event.type === 'PurgeDue' ? [{ type: 'PurgeSpace', data: { spaceId: event.data.spaceId } }] : [];
  },
};
