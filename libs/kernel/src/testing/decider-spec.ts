import { type Command, type Decider, type DomainEvent, fold } from '../domain/decider';
import { DomainError, type DomainErrorKind } from '../domain/errors';

/**
 * Given-when-then for deciders:
 * `given(decider, [events]).when(command).then([events])` or `.thenThrows('illegal-state', /last admin/)`.
 */
export function given<State, Cmd extends Command, Evt extends DomainEvent>(
  decider: Decider<State, Cmd, Evt>,
  history: readonly Evt[] = [],
) {
  return {
    when(command: Cmd) {
      const run = () => decider.decide(command, fold(decider, history));
      return {
        then(expected: readonly Evt[]) {
          expect(run()).toEqual(expected);
        },
        thenNothing() {
          expect(run()).toEqual([]);
        },
        thenThrows(kind: DomainErrorKind, message?: RegExp) {
          let caught: unknown;
          try {
            run();
          } catch (error) {
            caught = error;
          }
          expect(caught).toBeInstanceOf(DomainError);
          expect((caught as DomainError).kind).toBe(kind);
          if (message) expect((caught as DomainError).message).toMatch(message);
        },
      };
    },
    thenState(expected: State) {
      expect(fold(decider, history)).toEqual(expected);
    },
  };
}

/** Command metadata for tests at a fixed time. */
export const at = (now: string, actor = 'user-1') => ({ now, actor });
