import { type Projection } from '@app/kernel';
import { type ChangeRequestEvent, type ChangeRequestStatus } from '../domain';
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

/** The counters the Space shape shows (`changeRequests`, `changeRequestsOpen`, `changeRequestsDraft`). */
export const spaceActivityProjection: Projection<SpaceActivityDoc> = {
  name: 'review_space_activity',
  version: 1,
  collection: SPACE_ACTIVITY_COUNTS,
  handles: ['ChangeRequestCreated', 'ChangeRequestEdited', 'ChangeRequestMerged'],
  idOf: (event) => String(event.data.spaceId),
  evolve(doc, recorded) {
    const event = { type: recorded.type, data: recorded.data } as ChangeRequestEvent;
    const current = doc ?? empty(String(recorded.data.spaceId));
    switch (event.type) {
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
