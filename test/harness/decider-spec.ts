/**
 * Given / when / then for pure decisions (Emmett's DeciderSpecification, in jest): given the events
 * already in a stream, when a command is decided, then these events are decided — or nothing, or the
 * typed error with this code. Folding goes through the decider's own evolve, so a spec also catches a
 * fold that forgets what an event means.
 */
import type { Decider, DomainEvent, NewEvent, StateEvolution } from '../../src/command-handling/decider';

export interface DecisionThen<E extends DomainEvent> {
  /** The decided events (type and data) equal these, in order; a field present as undefined is a difference. */
  then(expected: E[]): void;
  /** The decided events, for assertions a plain equality cannot make (keys, derived fields). */
  decided(): NewEvent<E>[];
  thenNothing(): void;
  /** Deciding throws an AppError with this code (and these fields, e.g. its `kind`, when given). */
  thenRefuses(code: string, fields?: Record<string, unknown>): void;
}

export interface DecisionSpec<Command, E extends DomainEvent> {
  given(history: E[]): { when(command: Command): DecisionThen<E> };
}

/** A decider, or a stream's evolution (e.g. a command handler such as `orderCommands`) and one decision on it. */
export function deciderSpec<Command, State, E extends DomainEvent>(decider: Decider<Command, State, E>): DecisionSpec<Command, E>;
export function deciderSpec<Command, State, E extends DomainEvent>(
  evolution: StateEvolution<State, E>,
  decision: Decider<Command, State, E>['decide'],
): DecisionSpec<Command, E>;
export function deciderSpec<Command, State, E extends DomainEvent>(
  evolution: StateEvolution<State, E> & Partial<Pick<Decider<Command, State, E>, 'decide'>>,
  decision = evolution.decide!,
): DecisionSpec<Command, E> {
  return {
    given: (history: E[]) => ({
      when: (command: Command): DecisionThen<E> => {
        const decide = () => decision(command, history.reduce(evolution.evolve, evolution.initialState()));
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
