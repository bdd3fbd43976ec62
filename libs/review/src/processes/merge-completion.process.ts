import { type DeadlineEvent, type ProcessDefinition } from '@app/kernel';
import { type DomainEvent } from '@app/kernel/domain';

export type MergeCompletionDue = DomainEvent<
  'MergeCompletionDue',
  { spaceId: string; changeRequestId: string; revisionId: string; startedBy?: string }
>;

/** The process keeps nothing: whether a merge still needs finishing is read from the space's stream. */
export type MergeCompletionState = Record<string, never>;

/**
 * A merge touches two streams (the space's change requests and the space itself), so its start is recorded
 * first and this process makes sure every started merge is finished: when a merge starts, it asks for it to be
 * completed. The request's own handler usually gets there first and the command finds nothing left to do; after
 * a crash between the steps, the command finishes the merge when the service starts again.
 */
export const mergeCompletionProcess: ProcessDefinition<MergeCompletionState, MergeCompletionDue> = {
  name: 'changerequestmerge',
  handles: ['ChangeRequestMergeStarted', 'ChangeRequestMerged', 'ChangeRequestMergeAbandoned'],
  instanceOf: (event) => String(event.data.revisionId),
  initialState: () => ({}),
  evolve: (state: MergeCompletionState, _event: MergeCompletionDue | DeadlineEvent) => state,
  when(_state, event) {
    if (event.type !== 'ChangeRequestMergeStarted') return [];
    return [
      {
        type: 'MergeCompletionDue',
        data: {
          spaceId: String(event.data.spaceId),
          changeRequestId: String(event.data.changeRequestId),
          revisionId: String(event.data.revisionId),
          ...(typeof event.data.startedBy === 'string' ? { startedBy: event.data.startedBy } : {}),
        },
      },
    ];
  },
  commands(_state, event) {
    return event.type === 'MergeCompletionDue' ? [{ type: 'CompleteChangeRequestMerge', data: event.data }] : [];
  },
};
