import { type DomainEvent } from '../domain/decider';
import { type RecordedEvent } from '../ports/event-store.port';

/** Events every process understands: the runner arms and disarms timers from them. */
export type DeadlineScheduled = DomainEvent<'DeadlineScheduled', { key: string; at: string }>;
export type DeadlineCancelled = DomainEvent<'DeadlineCancelled', { key: string }>;
export type DeadlineReached = DomainEvent<'DeadlineReached', { key: string; at: string; reachedAt: string }>;
export type DeadlineEvent = DeadlineScheduled | DeadlineCancelled | DeadlineReached;

/** A command a process sends. `commandId` is derived by the runner, so a redelivered trigger sends the same id. */
export interface ProcessCommand {
  type: string;
  data: Record<string, unknown>;
}

/**
 * A durable process (saga), written as pure functions over its own stream `<name>-<instance>`:
 * `when` records what an incoming event means for the process, `onDeadline` what a passed deadline means, and
 * `commands` which commands a recorded event sends. The runner stores, re-arms and dispatches.
 */
export interface ProcessDefinition<State, Evt extends DomainEvent = DomainEvent> {
  /** Also the category of the process streams: letters and digits only. */
  readonly name: string;
  readonly handles: readonly string[];
  /** The process instance an event concerns, or null. */
  instanceOf(event: RecordedEvent): string | null;
  initialState(): State;
  evolve(state: State, event: Evt | DeadlineEvent): State;
  when(state: State, event: RecordedEvent): readonly (Evt | DeadlineEvent)[];
  onDeadline?(
    state: State,
    deadline: { key: string; at: string; instance: string },
    now: string,
  ): readonly (Evt | DeadlineEvent)[];
  commands?(state: State, event: Evt | DeadlineEvent): readonly ProcessCommand[];
}

/** Sends a process's command to its context. Must be idempotent for a given `commandId`. */
export type CommandDispatcher = (
  command: ProcessCommand & { commandId: string; causationId: string; correlationId?: string },
) => Promise<void>;
