import { type Projection } from '@app/kernel';
import { type ChangeRequestEvent, type ChangeRequestStatus, type CommentEvent } from '../domain';
import { SPACE_ACTIVITY_COUNTS, type SpaceActivityDoc } from '../application/read-models';

const empty = (spaceId: string): SpaceActivityDoc => ({
  id: spaceId,
  changeRequests: 0,
  changeRequestsOpen: 0,
  changeRequestsDraft: 0,
  comments: 0,
});

/** Moves one change request from one status to another in the space's counters. */
function moved(doc: SpaceActivityDoc, from: ChangeRequestStatus | null, to: ChangeRequestStatus): SpaceActivityDoc {
  const next = { ...doc };
  if (from === 'open') next.changeRequestsOpen--;
  if (from === 'draft') next.changeRequestsDraft--;
  if (to === 'open') next.changeRequestsOpen++;
  if (to === 'draft') next.changeRequestsDraft++;
  if (from === null) next.changeRequests++;
  return next;
}

/** How an event moves the number of open comments of a thread. */
export function openCommentsDelta(event: CommentEvent): number {
  switch (event.type) {
    case 'CommentPosted':
    case 'CommentReopened':
      return 1;
    case 'CommentResolved':
      return -1;
    case 'CommentDeleted':
      return event.data.wasOpen ? -1 : 0;
    default:
      return 0;
  }
}

export const OPEN_COMMENT_EVENTS = ['CommentPosted', 'CommentResolved', 'CommentReopened', 'CommentDeleted'];

/**
 * The counters the Space shape shows (`changeRequests`, `changeRequestsOpen`, `changeRequestsDraft`, and
 * `comments`: the open comments on the space itself, not those on its change requests).
 */
export const spaceActivityProjection: Projection<SpaceActivityDoc> = {
  name: 'review_space_activity',
  version: 2,
  collection: SPACE_ACTIVITY_COUNTS,
  handles: ['ChangeRequestCreated', 'ChangeRequestEdited', 'ChangeRequestMerged', ...OPEN_COMMENT_EVENTS],
  idOf: (event) =>
    OPEN_COMMENT_EVENTS.includes(event.type) && event.data.changeRequestId ? null : String(event.data.spaceId),
  evolve(doc, recorded) {
    const event = { type: recorded.type, data: recorded.data } as ChangeRequestEvent | CommentEvent;
    const current = doc ?? empty(String(recorded.data.spaceId));
    switch (event.type) {
      case 'CommentPosted':
      case 'CommentResolved':
      case 'CommentReopened':
      case 'CommentDeleted':
        return { ...current, comments: Math.max(0, current.comments + openCommentsDelta(event)) };
      case 'ChangeRequestCreated':
        return moved(current, null, 'draft');
      case 'ChangeRequestEdited':
        return event.data.status === undefined ? doc : moved(current, event.data.previousStatus, event.data.status);
      case 'ChangeRequestMerged':
        return moved(current, event.data.previousStatus, 'merged');
      default:
        return doc;
    }
  },
};
