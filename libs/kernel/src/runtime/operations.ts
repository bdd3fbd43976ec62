import { type Clock } from '../ports/clock.port';
import { type EventStore, type GlobalPosition } from '../ports/event-store.port';
import { newEventId, newId } from './ids';

/**
 * Operator requests travel through the event store like everything else, so that a CLI in another process can
 * ask the running service for something without a second channel: every projection lane reads the global order
 * and acts on the requests meant for its projections. A request recorded while no service runs is carried out
 * by the next one that starts.
 */
export const PROJECTION_REBUILD_REQUESTED = 'ProjectionRebuildRequested';

export interface ProjectionRebuildRequested {
  /** Names of the projections to rebuild, or `all`. */
  projections: string[] | 'all';
  requestedBy: string;
  requestedAt: string;
}

/** Records a request to rebuild projections; returns its position, which the rebuilt projections pass when done. */
export async function requestProjectionRebuild(
  events: EventStore,
  clock: Clock,
  projections: string[] | 'all',
  requestedBy: string,
): Promise<GlobalPosition> {
  const data: ProjectionRebuildRequested = { projections, requestedBy, requestedAt: clock.now().toISOString() };
  const result = await events.append(
    `operations-${newId()}`,
    [{ id: newEventId(), type: PROJECTION_REBUILD_REQUESTED, data: data as unknown as Record<string, unknown> }],
    'no_stream',
  );
  return result.position;
}
