import { type CommandMetadata } from '../domain/decider';
import { type Clock } from '../ports/clock.port';
import { type GlobalPosition } from '../ports/event-store.port';

/** What a command handler returns to its controller: where its append landed (null: nothing changed). */
export interface CommandResult {
  position: GlobalPosition | null;
  revision: number;
}

/** Command metadata for a caller at the clock's current time. */
export function metadataFor(clock: Clock, actor?: string, extra: Partial<CommandMetadata> = {}): CommandMetadata {
  return { now: clock.now().toISOString(), ...(actor ? { actor } : {}), ...extra };
}
