import { type CommandMetadata } from '../domain/decider';
import { type Clock } from '../ports/clock.port';
import { type GlobalPosition } from '../ports/event-store.port';
import { currentCorrelationId } from './correlation';

/** What a command handler returns to its controller: where its append landed (null: nothing changed). */
export interface CommandResult {
  position: GlobalPosition | null;
  revision: number;
}

/** Command metadata for a caller at the clock's current time, in the correlation of the work under way. */
export function metadataFor(clock: Clock, actor?: string, extra: Partial<CommandMetadata> = {}): CommandMetadata {
  const correlationId = currentCorrelationId();
  return {
    now: clock.now().toISOString(),
    ...(actor ? { actor } : {}),
    ...(correlationId ? { correlationId } : {}),
    ...extra,
  };
}
