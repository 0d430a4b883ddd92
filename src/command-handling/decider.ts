/**
 * A decider is pure: `decide(command, state)` says what happens, `evolve(state, event)` says what it
 * means. Time, ids and provider answers come in through the command. Deciders import nothing from
 * NestJS, TypeORM or HTTP.
 */
export interface DomainEvent<Type extends string = string, Data extends object = Record<string, unknown>> {
  type: Type;
  data: Data;
  /** Present when folding recorded (or just appended) events: who and when. */
  metadata?: { recordedAt: string; [key: string]: unknown };
}

/** An event the decider wants appended; `key` names the step so retries produce the same event id. */
export interface NewEvent<E extends DomainEvent = DomainEvent> {
  event: E;
  key: string;
}

/** What a stream's events mean: the state before any event, and how each event changes it. */
export interface StateEvolution<State, E extends DomainEvent> {
  initialState: () => State;
  evolve: (state: State, event: E) => State;
}

export interface Decider<Command, State, E extends DomainEvent> extends StateEvolution<State, E> {
  /** Empty array: nothing to do (e.g. the command was already carried out). Throw an AppError to refuse. */
  decide: (command: Command, state: State) => NewEvent<E>[];
}

/** One decided event, or none: the shape of a decision that yields at most one fact. */
export function decidedEvent<E extends DomainEvent>(event: E | undefined, key: string): NewEvent<E>[] {
  return event ? [{ event, key }] : [];
}
