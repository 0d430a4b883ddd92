/**
 * Given / when / then for pure decisions (Emmett's DeciderSpecification, in jest): given the events
 * already in a stream, when a command is decided, then these events are decided — or nothing, or the
 * typed error with this code. Folding goes through the decider's own evolve, so a spec also catches a
 * fold that forgets what an event means.
 */
import type { Decider, DomainEvent, NewEvent } from '../../src/command-handling/decider';

export interface DecisionThen<E extends DomainEvent> {
  /** The decided events (type and data) equal these, in order; a field present as undefined is a difference. */
  then(expected: E[]): void;
  /** The decided events, for assertions a plain equality cannot make (keys, derived fields). */
  decided(): NewEvent<E>[];
  thenNothing(): void;
  /** Deciding throws an AppError with this code (and these fields, e.g. its `kind`, when given). */
  thenRefuses(code: string, fields?: Record<string, unknown>): void;
}

export function deciderSpec<Command, State, E extends DomainEvent>(decider: Decider<Command, State, E>) {
  return {
    given: (history: E[]) => ({
      when: (command: Command): DecisionThen<E> => {
        const decide = () => decider.decide(command, history.reduce(decider.evolve, decider.initialState()));
        return {
          then: (expected) => expect(decide().map(({ event }) => event)).toStrictEqual(expected),
          decided: decide,
          thenNothing: () => expect(decide()).toEqual([]),
          thenRefuses: (code, fields = {}) => {
            let refusal: unknown;
            try {
              decide();
            } catch (error) {
              refusal = error;
            }
            expect(refusal).toMatchObject({ code, ...fields });
          },
        };
      },
    }),
  };
}
