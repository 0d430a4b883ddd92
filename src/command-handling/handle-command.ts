/**
 * The one generic command path: load the stream → fold → decide → append with the expectation from
 * the load. A conflict means someone else wrote in between: re-load and decide again, a bounded number
 * of times. A duplicate command therefore either finds its work done (decide returns nothing) or is
 * recognised by the store through its deterministic event ids. Those ids name the facts as well as
 * the step (deterministic-event-id.ts), so the store recognises only a true retry; a command that
 * decided other facts under the same step conflicts, re-loads and is decided again.
 */
import { WrongExpectedVersion } from '../event-store/errors';
import type { Checkpoint, EventMetadata, EventStore } from '../event-store/event-store.port';
import type { Decider, DomainEvent } from './decider';
import { deterministicEventId } from './deterministic-event-id';

export interface CommandContext {
  /** Correlation, causation and actor for the metadata of every appended event. */
  metadata: Pick<EventMetadata, 'correlationId' | 'causationId' | 'actor'> & Record<string, unknown>;
  now?: () => Date;
  maxAttempts?: number;
}

export interface CommandOutcome<State> {
  state: State;
  /** Last revision of the stream after the command (-1: still no stream). */
  revision: number;
  /** How many events the decision appended (0: already done). A store-recognised retry counts too: it is the same facts. */
  appended: number;
  /** Global position of the last event written by this call. */
  position?: Checkpoint;
}

export async function handleCommand<Command, State, E extends DomainEvent>(
  store: EventStore,
  stream: string,
  decider: Decider<Command, State, E>,
  command: Command,
  context: CommandContext,
): Promise<CommandOutcome<State>> {
  const maxAttempts = context.maxAttempts ?? 3;
  for (let attempt = 1; ; attempt++) {
    const history = await store.readStream(stream);
    let state = history.reduce((s, e) => decider.evolve(s, e as unknown as E), decider.initialState());
    const revision = history.length ? history[history.length - 1].revision : -1;
    const decided = decider.decide(command, state);
    if (decided.length === 0) return { state, revision, appended: 0 };

    const recordedAt = (context.now?.() ?? new Date()).toISOString();
    const toAppend = decided.map(({ event, key }) => ({
      id: deterministicEventId(stream, key, event),
      type: event.type,
      data: event.data as Record<string, unknown>,
      metadata: { ...context.metadata, recordedAt },
    }));
    try {
      const result = await store.append(stream, toAppend, revision < 0 ? 'no_stream' : revision);
      state = decided.reduce((s, { event }, i) => decider.evolve(s, { ...event, metadata: toAppend[i].metadata }), state);
      return { state, revision: result.nextRevision, appended: toAppend.length, position: result.position };
    } catch (error) {
      if (!(error instanceof WrongExpectedVersion) || attempt >= maxAttempts) throw error;
    }
  }
}
