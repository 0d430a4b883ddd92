/**
 * The one generic command path (Emmett's CommandHandler): load the stream → fold → decide → append
 * with the expectation from the load. A conflict means someone else wrote in between: re-load and
 * decide again, a bounded number of times. A duplicate command therefore either finds its work done
 * (the decision is empty) or is recognised by the store through its deterministic event ids. Those
 * ids name the facts as well as the step (deterministic-event-id.ts), so the store recognises only a
 * true retry; a command that decided other facts under the same step conflicts, re-loads and is
 * decided again.
 *
 * A caller that acted on a state between loading it and recording the result (a provider call made
 * on that state) passes it as `from`: the decision is appended at exactly that revision, without a
 * re-read and without a retry, and a conflict is thrown to the caller, who must look again.
 */
import { WrongExpectedVersion } from '../event-store/errors';
import type { Checkpoint, EventStore, RecordedEvent } from '../event-store/event-store.port';
import type { DomainEvent, NewEvent, StateEvolution } from './decider';
import { appendLinked } from './append-linked';
import { toEventToAppend, type CommandMetadata } from './event-to-append';

/** A stream folded at a revision (-1: no stream yet). */
export interface LoadedStream<State> {
  state: State;
  revision: number;
  /** The event at `revision`, which the next append links to (hash-link.ts); read again when absent. */
  last?: RecordedEvent;
}

export interface CommandContext {
  /** Correlation, causation and actor for the metadata of every appended event. */
  metadata: CommandMetadata;
  now?: () => Date;
  /** Loads, decisions and appends before a conflict is thrown (default 3). Ignored with `from`. */
  maxAttempts?: number;
}

export interface HandleOptions<State> extends CommandContext {
  /** Decide on this state and append at exactly its revision: no read, no retry, a conflict is thrown. */
  from?: LoadedStream<State>;
  /**
   * The caller vouches that these events' ids were never appended before (their step key holds a value
   * unique to this call), so the store cannot have answered with an earlier append's events: the
   * outcome then carries the last event as appended (`last`), and a next step taken `from` it links to
   * it without reading it back. Without this an outcome carries no `last`: a retry the store
   * recognised holds the first call's metadata, not this one's.
   */
  freshIds?: boolean;
}

export interface CommandOutcome<State, E extends DomainEvent = DomainEvent> extends LoadedStream<State> {
  /** Last revision of the stream after the command (-1: still no stream). */
  revision: number;
  /** How many events the decision appended (0: already done). A store-recognised retry counts too: it is the same facts. */
  appended: number;
  /** The events this call appended, in order (empty: already done). */
  newEvents: E[];
  /** Global position of the last event written by this call. */
  position?: Checkpoint;
}

/** Decides on the current state: the events to append (none: nothing to do), or a thrown AppError to refuse. */
export type Decide<State, E extends DomainEvent> = (state: State) => NewEvent<E>[];

export interface CommandHandler<State, E extends DomainEvent> extends StateEvolution<State, E> {
  fold(history: RecordedEvent[]): State;
  load(store: EventStore, id: string): Promise<LoadedStream<State>>;
  handle(store: EventStore, id: string, decide: Decide<State, E>, options: HandleOptions<State>): Promise<CommandOutcome<State, E>>;
}

export interface CommandHandlerOptions<State, E extends DomainEvent> extends StateEvolution<State, E> {
  /** The stream of a business key, e.g. `orderStream`; the key is the stream name itself when omitted. */
  streamOf?: (id: string) => string;
}

export function commandHandler<State, E extends DomainEvent>(options: CommandHandlerOptions<State, E>): CommandHandler<State, E> {
  const { initialState, evolve } = options;
  const streamOf = options.streamOf ?? ((id: string) => id);
  const fold = (history: RecordedEvent[]) => history.reduce((state, event) => evolve(state, event as unknown as E), initialState());

  async function load(store: EventStore, id: string): Promise<LoadedStream<State>> {
    const history = await store.readStream(streamOf(id));
    const last = history.at(-1);
    return { state: fold(history), revision: last ? last.revision : -1, ...(last ? { last } : {}) };
  }

  async function decideAndAppend(
    store: EventStore,
    stream: string,
    from: LoadedStream<State>,
    decide: Decide<State, E>,
    context: CommandContext & { freshIds?: boolean },
  ): Promise<CommandOutcome<State, E>> {
    const decided = decide(from.state);
    if (decided.length === 0) return { state: from.state, revision: from.revision, appended: 0, newEvents: [] };
    const recordedAt = (context.now?.() ?? new Date()).toISOString();
    const toAppend = decided.map((newEvent) => toEventToAppend(stream, newEvent, context.metadata, recordedAt));
    const { result, linked } = await appendLinked(store, stream, toAppend, from.revision < 0 ? 'no_stream' : from.revision, from.last);
    const state = decided.reduce((s, { event }, i) => evolve(s, { ...event, metadata: toAppend[i].metadata }), from.state);
    const newEvents = decided.map(({ event }) => event);
    const outcome = { state, revision: result.nextRevision, appended: toAppend.length, newEvents, position: result.position };
    if (!context.freshIds) return outcome;
    const last: RecordedEvent = {
      ...linked[linked.length - 1],
      stream,
      revision: result.nextRevision,
      position: result.position,
      created: new Date(),
    };
    return { ...outcome, last };
  }

  async function handle(store: EventStore, id: string, decide: Decide<State, E>, options: HandleOptions<State>) {
    const stream = streamOf(id);
    if (options.from) return decideAndAppend(store, stream, options.from, decide, options);
    const maxAttempts = options.maxAttempts ?? 3;
    for (let attempt = 1; ; attempt++) {
      const loaded = await load(store, id);
      try {
        return await decideAndAppend(store, stream, loaded, decide, options);
      } catch (error) {
        if (!(error instanceof WrongExpectedVersion) || attempt >= maxAttempts) throw error;
      }
    }
  }

  return { initialState, evolve, fold, load, handle };
}
