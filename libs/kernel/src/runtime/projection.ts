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
  /**
   * The new document (null deletes it). Pure: no I/O, no clock. `related` holds the documents `relatedOf` named
   * (absent ones as null), as they stand before this event (the runner always passes it).
   */
  evolve(doc: D | null, event: RecordedEvent, related?: ReadonlyMap<string, D | null>): D | null;
  /**
   * Optional, for a projection that keeps lookups of its own beside its documents (a join the event cannot answer
   * alone, such as the organization of the space a comment is on): the ids of other documents of its collection
   * that this event reads, and may change through `evolveRelated`. The runner reads them with the changes of
   * earlier events of the same batch.
   */
  relatedOf?(event: RecordedEvent): readonly string[];
  /** New values of related documents this event changes (null deletes); the ones left out stay. Pure. */
  evolveRelated?(related: ReadonlyMap<string, D | null>, event: RecordedEvent): ReadonlyMap<string, D | null>;
}
