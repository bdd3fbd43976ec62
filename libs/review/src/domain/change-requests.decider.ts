import {
  type Command,
  type Decider,
  type DomainEvent,
  DomainError,
  IllegalState,
  NotFound,
  ValidationFailed,
  assertNever,
  characterCount,
} from '@app/kernel/domain';

/**
 * The change requests of one space are one aggregate, in one stream: numbers are handed out by the same append
 * that creates a change request (no gaps, no duplicates, whatever runs concurrently), and a merge marks every
 * other change request of the space outdated in the same append.
 */
export const changeRequestsStream = (spaceId: string) => `changerequests-${spaceId}`;

export type ChangeRequestStatus = 'draft' | 'open' | 'archived' | 'merged';
/** The statuses a writer may set; only a merge makes a change request `merged`. */
export type SettableStatus = Exclude<ChangeRequestStatus, 'merged'>;
export const SETTABLE_STATUSES: readonly SettableStatus[] = ['draft', 'open', 'archived'];
export const SUBJECT_MAX = 100;

export type MergeResult = 'merge' | 'update' | 'conflicts';
export interface ContentConflict {
  page: string;
  path: string;
}

export interface ChangeRequestFacts {
  changeRequestId: string;
  number: number;
  status: ChangeRequestStatus;
  /** The change request's current content. */
  revision: string;
  /** The space's revision when the change request was created. */
  revisionInitial: string;
  /** The space's revision the change request was last updated from. */
  mergedAncestor?: string;
}

export interface MergeInProgress {
  changeRequestId: string;
  /** The merge revision the space moves to. */
  revisionId: string;
  ours: string;
  theirs: string;
  base: string;
}

export interface ChangeRequestsState {
  lastNumber: number;
  requests: Readonly<Record<string, ChangeRequestFacts>>;
  /** A merge that has started and not yet landed or been abandoned (at most one per space). */
  merging: MergeInProgress | null;
}

type Meta = { spaceId: string; changeRequestId: string };

export type CreateChangeRequest = Command<
  'CreateChangeRequest',
  Meta & { organizationId: string; subject: string; revisionId: string }
>;
export type EditChangeRequest = Command<'EditChangeRequest', Meta & { subject?: string; status?: SettableStatus }>;
export type RecordChangeRequestContent = Command<
  'RecordChangeRequestContent',
  Meta & { revisionId: string; fromRevisionId: string; pages: PageChanges }
>;
export type UpdateChangeRequestFromSpace = Command<
  'UpdateChangeRequestFromSpace',
  Meta & {
    revisionId: string;
    fromRevisionId: string;
    spaceRevisionId: string;
    result: 'update' | 'conflicts';
    conflicts: ContentConflict[];
  }
>;
export type StartMerge = Command<
  'StartMerge',
  Meta & { revisionId: string; ours: string; theirs: string; base: string }
>;
export type CompleteMerge = Command<
  'CompleteMerge',
  Meta & { revisionId: string; result: 'merge' | 'conflicts'; conflicts: ContentConflict[] }
>;
export type AbandonMerge = Command<'AbandonMerge', Meta & { revisionId: string; reason: string }>;
export type ChangeRequestCommand =
  | CreateChangeRequest
  | EditChangeRequest
  | RecordChangeRequestContent
  | UpdateChangeRequestFromSpace
  | StartMerge
  | CompleteMerge
  | AbandonMerge;

/** The pages a content change touched, by id. */
export interface PageChanges {
  created: string[];
  updated: string[];
  deleted: string[];
}

export type ChangeRequestCreated = DomainEvent<
  'ChangeRequestCreated',
  Meta & {
    organizationId: string;
    number: number;
    subject: string;
    status: 'draft';
    revisionId: string;
    createdBy?: string;
    createdAt: string;
  }
>;
export type ChangeRequestEdited = DomainEvent<
  'ChangeRequestEdited',
  Meta & { subject?: string; status?: SettableStatus; previousStatus: ChangeRequestStatus; editedAt: string }
>;
export type ChangeRequestContentChanged = DomainEvent<
  'ChangeRequestContentChanged',
  Meta & { revisionId: string; previousRevisionId: string; pages: PageChanges; changedBy?: string; changedAt: string }
>;
export type ChangeRequestUpdated = DomainEvent<
  'ChangeRequestUpdated',
  Meta & {
    revisionId: string;
    previousRevisionId: string;
    /** The space revision the change request now includes (`revisionMergedAncestor`). */
    spaceRevisionId: string;
    result: 'update' | 'conflicts';
    conflicts: ContentConflict[];
    updatedBy?: string;
    updatedAt: string;
  }
>;
export type ChangeRequestMergeStarted = DomainEvent<
  'ChangeRequestMergeStarted',
  Meta & { revisionId: string; ours: string; theirs: string; base: string; startedBy?: string; startedAt: string }
>;
export type ChangeRequestMerged = DomainEvent<
  'ChangeRequestMerged',
  Meta & {
    revisionId: string;
    previousStatus: ChangeRequestStatus;
    result: 'merge' | 'conflicts';
    conflicts: ContentConflict[];
    mergedBy?: string;
    mergedAt: string;
  }
>;
export type ChangeRequestMergeAbandoned = DomainEvent<
  'ChangeRequestMergeAbandoned',
  Meta & { revisionId: string; reason: string; abandonedAt: string }
>;
/** Another change request of the space was merged: this one no longer contains the space's latest content. */
export type ChangeRequestOutdated = DomainEvent<
  'ChangeRequestOutdated',
  Meta & { mergedChangeRequestId: string; outdatedAt: string }
>;
export type ChangeRequestEvent =
  | ChangeRequestCreated
  | ChangeRequestEdited
  | ChangeRequestContentChanged
  | ChangeRequestUpdated
  | ChangeRequestMergeStarted
  | ChangeRequestMerged
  | ChangeRequestMergeAbandoned
  | ChangeRequestOutdated;

export const CHANGE_REQUEST_EVENTS: readonly ChangeRequestEvent['type'][] = [
  'ChangeRequestCreated',
  'ChangeRequestEdited',
  'ChangeRequestContentChanged',
  'ChangeRequestUpdated',
  'ChangeRequestMergeStarted',
  'ChangeRequestMerged',
  'ChangeRequestMergeAbandoned',
  'ChangeRequestOutdated',
];

/** A change request of the space by its id or its number in the space (`"12"`); NotFound otherwise. */
export function findChangeRequest(state: ChangeRequestsState, idOrNumber: string): ChangeRequestFacts {
  const byId = state.requests[idOrNumber];
  if (byId) return byId;
  if (/^[1-9]\d{0,9}$/.test(idOrNumber)) {
    const number = Number(idOrNumber);
    for (const request of Object.values(state.requests)) if (request.number === number) return request;
  }
  throw new NotFound(`Change request ${idOrNumber} not found`);
}

/** The revision a merge or an update starts from: the space content the change request last included. */
export const baseOf = (request: ChangeRequestFacts) => request.mergedAncestor ?? request.revisionInitial;

function requireRequest(state: ChangeRequestsState, changeRequestId: string): ChangeRequestFacts {
  const request = state.requests[changeRequestId];
  if (!request) throw new NotFound(`Change request ${changeRequestId} not found`);
  return request;
}

/** Merged change requests are final; archived ones must be reopened before their content changes again. */
function requireWorking(request: ChangeRequestFacts, action: string): void {
  if (request.status === 'merged') throw new IllegalState(`the change request is merged: it cannot ${action}`);
  if (request.status === 'archived') {
    throw new IllegalState(`the change request is archived: set its status to draft or open before it can ${action}`);
  }
}

function requireNoMerge(state: ChangeRequestsState, request: ChangeRequestFacts): void {
  if (state.merging?.changeRequestId === request.changeRequestId) {
    throw new IllegalState('the change request is being merged');
  }
}

function checkSubject(subject: string): void {
  if (characterCount(subject) > SUBJECT_MAX)
    throw new ValidationFailed(`subject must have at most ${SUBJECT_MAX} characters`);
}

function withRequest(state: ChangeRequestsState, request: ChangeRequestFacts): ChangeRequestsState {
  return { ...state, requests: { ...state.requests, [request.changeRequestId]: request } };
}

export const changeRequestsDecider: Decider<ChangeRequestsState, ChangeRequestCommand, ChangeRequestEvent> = {
  initialState: () => ({ lastNumber: 0, requests: {}, merging: null }),

  decide(command, state) {
    const now = command.metadata.now;
    const actor = command.metadata.actor;
    const { spaceId, changeRequestId } = command.data;
    switch (command.type) {
      case 'CreateChangeRequest': {
        // a repeated command (same id) is answered by the change request it created
        if (state.requests[changeRequestId]) return [];
        checkSubject(command.data.subject);
        return [
          {
            type: 'ChangeRequestCreated',
            data: {
              spaceId,
              changeRequestId,
              organizationId: command.data.organizationId,
              number: state.lastNumber + 1,
              subject: command.data.subject,
              status: 'draft',
              revisionId: command.data.revisionId,
              ...(actor ? { createdBy: actor } : {}),
              createdAt: now,
            },
          },
        ];
      }
      case 'EditChangeRequest': {
        const request = requireRequest(state, changeRequestId);
        const { subject, status } = command.data;
        if (subject === undefined && status === undefined) return [];
        if (request.status === 'merged')
          throw new IllegalState('the change request is merged: it can no longer change');
        if (status !== undefined) {
          if (!SETTABLE_STATUSES.includes(status)) throw new ValidationFailed('status must be draft, open or archived');
          requireNoMerge(state, request);
        }
        if (subject !== undefined) checkSubject(subject);
        return [
          {
            type: 'ChangeRequestEdited',
            data: {
              spaceId,
              changeRequestId,
              ...(subject !== undefined ? { subject } : {}),
              ...(status !== undefined ? { status } : {}),
              previousStatus: request.status,
              editedAt: now,
            },
          },
        ];
      }
      case 'RecordChangeRequestContent': {
        const request = requireRequest(state, changeRequestId);
        requireWorking(request, 'be edited');
        requireNoMerge(state, request);
        if (request.revision !== command.data.fromRevisionId) {
          throw new DomainError('conflict', 'the change request changed while the edit was prepared');
        }
        return [
          {
            type: 'ChangeRequestContentChanged',
            data: {
              spaceId,
              changeRequestId,
              revisionId: command.data.revisionId,
              previousRevisionId: request.revision,
              pages: command.data.pages,
              ...(actor ? { changedBy: actor } : {}),
              changedAt: now,
            },
          },
        ];
      }
      case 'UpdateChangeRequestFromSpace': {
        const request = requireRequest(state, changeRequestId);
        requireWorking(request, 'be updated');
        requireNoMerge(state, request);
        if (request.revision !== command.data.fromRevisionId) {
          throw new DomainError('conflict', 'the change request changed while the update was prepared');
        }
        return [
          {
            type: 'ChangeRequestUpdated',
            data: {
              spaceId,
              changeRequestId,
              revisionId: command.data.revisionId,
              previousRevisionId: request.revision,
              spaceRevisionId: command.data.spaceRevisionId,
              result: command.data.result,
              conflicts: command.data.conflicts,
              ...(actor ? { updatedBy: actor } : {}),
              updatedAt: now,
            },
          },
        ];
      }
      case 'StartMerge': {
        const request = requireRequest(state, changeRequestId);
        requireWorking(request, 'be merged');
        requireNoMerge(state, request);
        if (state.merging) throw new IllegalState('another change request of this space is being merged; try again');
        if (request.revision !== command.data.theirs) {
          throw new DomainError('conflict', 'the change request changed while the merge was prepared');
        }
        return [
          {
            type: 'ChangeRequestMergeStarted',
            data: {
              spaceId,
              changeRequestId,
              revisionId: command.data.revisionId,
              ours: command.data.ours,
              theirs: command.data.theirs,
              base: command.data.base,
              ...(actor ? { startedBy: actor } : {}),
              startedAt: now,
            },
          },
        ];
      }
      case 'CompleteMerge': {
        // finishing a merge twice (the request and the recovering process) lands it once
        if (state.merging?.revisionId !== command.data.revisionId) return [];
        const request = requireRequest(state, changeRequestId);
        const merged: ChangeRequestEvent = {
          type: 'ChangeRequestMerged',
          data: {
            spaceId,
            changeRequestId,
            revisionId: command.data.revisionId,
            previousStatus: request.status,
            result: command.data.result,
            conflicts: command.data.conflicts,
            ...(actor ? { mergedBy: actor } : {}),
            mergedAt: now,
          },
        };
        const outdated: ChangeRequestEvent[] = Object.values(state.requests)
          .filter(
            (other) =>
              other.changeRequestId !== changeRequestId && (other.status === 'draft' || other.status === 'open'),
          )
          .map((other) => ({
            type: 'ChangeRequestOutdated',
            data: {
              spaceId,
              changeRequestId: other.changeRequestId,
              mergedChangeRequestId: changeRequestId,
              outdatedAt: now,
            },
          }));
        return [merged, ...outdated];
      }
      case 'AbandonMerge': {
        if (state.merging?.revisionId !== command.data.revisionId) return [];
        return [
          {
            type: 'ChangeRequestMergeAbandoned',
            data: {
              spaceId,
              changeRequestId,
              revisionId: command.data.revisionId,
              reason: command.data.reason,
              abandonedAt: now,
            },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'ChangeRequestCreated':
        return {
          ...withRequest(state, {
            changeRequestId: event.data.changeRequestId,
            number: event.data.number,
            status: 'draft',
            revision: event.data.revisionId,
            revisionInitial: event.data.revisionId,
          }),
          lastNumber: Math.max(state.lastNumber, event.data.number),
        };
      case 'ChangeRequestEdited': {
        const request = state.requests[event.data.changeRequestId];
        if (!request || event.data.status === undefined) return state;
        return withRequest(state, { ...request, status: event.data.status });
      }
      case 'ChangeRequestContentChanged': {
        const request = state.requests[event.data.changeRequestId];
        return request ? withRequest(state, { ...request, revision: event.data.revisionId }) : state;
      }
      case 'ChangeRequestUpdated': {
        const request = state.requests[event.data.changeRequestId];
        if (!request) return state;
        return withRequest(state, {
          ...request,
          revision: event.data.revisionId,
          mergedAncestor: event.data.spaceRevisionId,
        });
      }
      case 'ChangeRequestMergeStarted':
        return {
          ...state,
          merging: {
            changeRequestId: event.data.changeRequestId,
            revisionId: event.data.revisionId,
            ours: event.data.ours,
            theirs: event.data.theirs,
            base: event.data.base,
          },
        };
      case 'ChangeRequestMerged': {
        const request = state.requests[event.data.changeRequestId];
        const next = { ...state, merging: null };
        return request ? withRequest(next, { ...request, status: 'merged' }) : next;
      }
      case 'ChangeRequestMergeAbandoned':
        return { ...state, merging: null };
      case 'ChangeRequestOutdated':
        return state;
      default:
        return state;
    }
  },
};
