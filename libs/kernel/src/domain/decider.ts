/** Metadata every command carries: who asked, why, and when (time never comes from a clock inside a decider). */
export interface CommandMetadata {
  readonly now: string;
  readonly actor?: string;
  readonly correlationId?: string;
  readonly causationId?: string;
  /** Set when a command must be idempotent (processes): event ids are derived from it. */
  readonly commandId?: string;
}

export interface Command<Type extends string = string, Data = unknown> {
  readonly type: Type;
  readonly data: Data;
  readonly metadata: CommandMetadata;
}

/** A domain event as a decider produces it: plain, past tense, JSON-safe data. */
export interface DomainEvent<Type extends string = string, Data = Record<string, unknown>> {
  readonly type: Type;
  readonly data: Data;
}

export interface Decider<State, Cmd extends Command, Evt extends DomainEvent> {
  initialState(): State;
  decide(command: Cmd, state: State): readonly Evt[];
  evolve(state: State, event: Evt): State;
}

/** Folds a history into a state. */
export function fold<State, Evt extends DomainEvent>(
  decider: Pick<Decider<State, never, Evt>, 'initialState' | 'evolve'>,
  events: Iterable<Evt>,
): State {
  let state = decider.initialState();
  for (const event of events) state = decider.evolve(state, event);
  return state;
}
