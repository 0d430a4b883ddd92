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

export interface Decider<Command, State, E extends DomainEvent> {
  initialState: () => State;
  evolve: (state: State, event: E) => State;
  /** Empty array: nothing to do (e.g. the command was already carried out). Throw an AppError to refuse. */
  decide: (command: Command, state: State) => NewEvent<E>[];
}
