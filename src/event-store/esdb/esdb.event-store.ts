/**
 * The EventStoreDB (KurrentDB) adapter of the event-store port, on `@eventstore/db-client` 6.x — the
 * production store. Semantics are the server's own (reference/esdb.md): expectations and event-id
 * dedupe are decided by the server; this class translates shapes and errors, makes `after` exclusive,
 * hides `$` system events, and keeps subscriptions alive across dropped connections.
 */
import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  START,
  StreamDeletedError,
  StreamNotFoundError,
  jsonEvent,
} from '@eventstore/db-client';
import { DEFAULT_MAX_APPEND_BYTES, assertValidName, prepareAppend } from '../append-validation';
import { appendNothing } from '../append-nothing';
import { encodeCheckpoint } from '../checkpoint';
import type {
  AppendResult,
  EventStore,
  EventSubscription,
  EventToAppend,
  ExpectedRevision,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeOptions,
} from '../event-store.port';
import { toCheckpoint, toRecordedEvent } from './esdb.conversions';
import { appendSettled } from './esdb.append';
import { guardOrphanedBatchAppendAnswers } from './orphaned-answers';
import { readAllPaged } from './esdb.read-all';
import { DEFAULT_READ_DEADLINE_MS, defaultDeadlineOf, readWithin } from './esdb.read-deadline';
import { keepAliveProblem } from './esdb.keepalive';
import { DEFAULT_RESUBSCRIBE, EsdbSubscription, type ResubscribePolicy, type SubscriptionDrop } from './esdb.subscription';

const utf8 = new TextEncoder();

export interface EsdbEventStoreOptions {
  maxAppendBytes?: number;
  /**
   * Tries for an append whose outcome is unknown or that the server refused before writing (not ready,
   * too busy, not the leader, timed out, connection dropped), every expectation kind: each retry sends
   * the same ids and settles on the original result (see `esdb.append.ts`). Default 8.
   */
  appendAttempts?: number;
  resubscribe?: ResubscribePolicy;
  /** Told of every subscription call that dropped and is being resubscribed (for logs and metrics). */
  onSubscriptionDrop?: (drop: SubscriptionDrop) => void;
  pingTimeoutMs?: number;
  /**
   * How long a read may go without an event from the server before it fails as DeadlineExceededError (the
   * api then answers 503 STORE.UNAVAILABLE); a long read that keeps receiving runs to its end
   * (esdb.read-deadline.ts). Default: the connection string's `defaultDeadline`, else 10 s.
   */
  readDeadlineMs?: number;
}

export class EsdbEventStore implements EventStore {
  readonly maxAppendBytes: number;
  private readonly appendAttempts: number;
  private readonly readDeadlineMs: number;
  private readonly subscriptions = new Set<EsdbSubscription>();

  /** The store owns the client: `close()` disposes it. */
  constructor(
    private readonly client: EventStoreDBClient,
    private readonly options: EsdbEventStoreOptions = {},
  ) {
    this.maxAppendBytes = options.maxAppendBytes ?? DEFAULT_MAX_APPEND_BYTES;
    this.appendAttempts = options.appendAttempts ?? 8;
    this.readDeadlineMs = options.readDeadlineMs ?? DEFAULT_READ_DEADLINE_MS;
    guardOrphanedBatchAppendAnswers();
  }

  /** e.g. `esdb://localhost:2113?tls=false`; `&defaultDeadline=<ms>` bounds how long reads may stall too (esdb.read-deadline.ts). */
  static connect(connectionString: string, options: EsdbEventStoreOptions = {}): EsdbEventStore {
    const problem = keepAliveProblem(connectionString);
    if (problem) throw new Error(`EventStoreDB connection string: ${problem}`);
    const readDeadlineMs = options.readDeadlineMs ?? defaultDeadlineOf(connectionString);
    return new EsdbEventStore(EventStoreDBClient.connectionString(connectionString), { ...options, readDeadlineMs });
  }

  async append(stream: string, events: EventToAppend[], expected: ExpectedRevision): Promise<AppendResult> {
    const { metadata } = prepareAppend(stream, events, expected, this.maxAppendBytes);
    if (events.length === 0) return appendNothing(stream, expected, await this.lastEvent(stream));
    // Metadata goes as the bytes validation already serialised; the client sends a Uint8Array as is (esdb.md §3.2).
    const proposed = events.map((e, i) => jsonEvent({ id: e.id, type: e.type, data: e.data ?? {}, metadata: utf8.encode(metadata[i]) }));
    const result = await appendSettled(this.client, stream, proposed, expected, this.appendAttempts, this.readDeadlineMs);
    const nextRevision = Number(result.nextExpectedRevision);
    return { nextRevision, position: result.position ? toCheckpoint(result.position) : await this.positionOf(stream, nextRevision) };
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    assertValidName('STREAM_NAME', stream);
    const backwards = options.direction === 'backwards';
    const maxCount = options.maxCount ?? Number.MAX_SAFE_INTEGER;
    if (maxCount <= 0) return [];
    const fromRevision = options.fromRevision !== undefined ? BigInt(options.fromRevision) : backwards ? END : START;
    const events: RecordedEvent[] = [];
    try {
      const read = this.client.readStream(stream, { direction: backwards ? BACKWARDS : FORWARDS, fromRevision, maxCount });
      for (const resolved of await readWithin(read, this.readDeadlineMs)) {
        if (resolved.event) events.push(toRecordedEvent(resolved));
      }
    } catch (error) {
      // Never written, soft-deleted or tombstoned: the port knows no deletes, so all three read as absent.
      if (error instanceof StreamNotFoundError || error instanceof StreamDeletedError) return [];
      throw error;
    }
    return events;
  }

  readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return readAllPaged(this.client, options, this.readDeadlineMs);
  }

  subscribeToAll(options: SubscribeOptions = {}): EventSubscription {
    const subscription: EsdbSubscription = new EsdbSubscription(
      this.client,
      options,
      this.options.resubscribe ?? DEFAULT_RESUBSCRIBE,
      () => this.subscriptions.delete(subscription),
      this.options.onSubscriptionDrop,
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  /** Reads the last event of `$all`; fails when the server does not answer within `pingTimeoutMs`. */
  async ping(): Promise<void> {
    const read = this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 });
    let timer: NodeJS.Timeout | undefined;
    const timeoutMs = this.options.pingTimeoutMs ?? 5_000;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`EventStoreDB did not answer a ping within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([
        (async () => {
          for await (const _ of read);
        })(),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
      void read.cancel().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    await this.client.dispose();
  }

  /** A duplicate whose original the server could not place answers without a position (esdb.md §2.4). */
  private async positionOf(stream: string, revision: number): Promise<AppendResult['position']> {
    const [event] = await this.readStream(stream, { fromRevision: revision, maxCount: 1 });
    return event ? event.position : encodeCheckpoint(0n, 0n);
  }

  private async lastEvent(stream: string): Promise<RecordedEvent | undefined> {
    const [last] = await this.readStream(stream, { direction: 'backwards', maxCount: 1 });
    return last;
  }
}
