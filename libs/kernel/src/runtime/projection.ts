import { type RecordedEvent } from '../ports/event-store.port';
import { type Doc, type IndexSpec } from '../ports/read-store.port';

/**
 * A pure read-model builder. The runner, not the projection, stores each document's last position, skips what
 * was already applied and writes the checkpoint. Bumping `version` makes the runner rebuild it from the start.
 */
export interface Projection<D extends Doc = Doc> {
  readonly name: string;
  readonly version: number;
  /** The collection this projection owns (and the only one it writes). */
  readonly collection: string;
  readonly indexes?: readonly IndexSpec[];
  /** Event types it reacts to. */
  readonly handles: readonly string[];
  /** The id of the document an event changes, or null when the event does not concern this projection. */
  idOf(event: RecordedEvent): string | null;
  /** The new document (null deletes it). Pure: no I/O, no clock. */
  evolve(doc: D | null, event: RecordedEvent): D | null;
}
