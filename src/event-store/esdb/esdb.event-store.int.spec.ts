/**
 * What the EventStoreDB adapter adds beyond the shared contract (test/contracts): the Append path,
 * the server's own refusals, system events, appends whose acknowledgement was lost, bigint hygiene,
 * readiness and shutdown.
 */
import { randomUUID } from 'node:crypto';
import { EventStoreDBClient, UnavailableError, jsonEvent } from '@eventstore/db-client';
import { startEsdbEmulator, type EsdbEmulator } from '../../../test/esdb-emulator';
import { until } from '../../../test/esdb-emulator/fidelity-helpers';
import { testEvent, testEvents, uniqueCategory } from '../../../test/contracts/test-events';
import { InvalidAppend, WrongExpectedVersion } from '../errors';
import { EsdbEventStore } from './esdb.event-store';

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => new Error('expected a failure, but it succeeded'),
    (error: unknown) => error,
  );
}

describe('EsdbEventStore', () => {
  let emulator: EsdbEmulator;
  let store: EsdbEventStore;
  let category: string;
  const stream = () => `${category}-${randomUUID()}`;

  beforeAll(async () => {
    emulator = await startEsdbEmulator({ maxAppendSize: 2_048 });
    store = EsdbEventStore.connect(emulator.connectionString, { appendAttempts: 10 });
  });

  afterAll(async () => {
    await store.close();
    await emulator.close();
  });

  beforeEach(() => {
    category = uniqueCategory();
  });

  describe('on a server that does not offer BatchAppend', () => {
    let legacy: EsdbEmulator;
    let legacyStore: EsdbEventStore;
    beforeAll(async () => {
      legacy = await startEsdbEmulator({ batchAppend: false });
      legacyStore = EsdbEventStore.connect(legacy.connectionString);
    });
    afterAll(async () => {
      await legacyStore.close();
      await legacy.close();
    });

    it('appends, recognises a retried append and reports a conflict over the Append call', async () => {
      const name = stream();
      const events = testEvents(2);
      const first = await legacyStore.append(name, events, 'no_stream');
      expect(await legacyStore.append(name, events, 'no_stream')).toEqual(first);
      expect(await failureOf(legacyStore.append(name, [testEvent()], 'no_stream'))).toMatchObject({
        stream: name,
        expected: 'no_stream',
        actual: 1,
      });
      expect(legacy.stats.appendCalls).toBe(3);
      expect(legacy.stats.batchAppendRequests).toBe(0);
    });
  });

  it("turns the server's own size refusal into InvalidAppend when its limit is below ours", async () => {
    const name = stream();
    const error = await failureOf(store.append(name, [testEvent('Big', { blob: 'x'.repeat(3_000) })], 'no_stream'));
    expect(error).toBeInstanceOf(InvalidAppend);
    expect(error).toMatchObject({ code: 'EVENT_STORE.INVALID_EVENT_TOO_LARGE' });
    expect(await store.readStream(name)).toEqual([]);
  });

  it('hides $ streams and $ event types from readAll and subscribeToAll', async () => {
    const client = EventStoreDBClient.connectionString(emulator.connectionString);
    const name = stream();
    await store.append(name, [testEvent('Opened')], 'no_stream');
    await client.setStreamMetadata(name, { maxCount: 100 });
    await client.appendToStream(name, jsonEvent({ type: '$internal', data: {} }));
    await store.append(name, [testEvent('Closed')], 'stream_exists');
    await client.dispose();

    const everything = await store.readAll();
    expect(everything.filter((e) => e.stream.startsWith('$') || e.type.startsWith('$'))).toEqual([]);
    expect(everything.filter((e) => e.stream === name).map((e) => e.type)).toEqual(['Opened', 'Closed']);
    const subscription = store.subscribeToAll();
    const seen: string[] = [];
    for await (const batch of subscription) {
      seen.push(...batch.events.map((e) => `${e.stream}:${e.type}`));
      if (batch.caughtUp) break;
    }
    await subscription.close();
    expect(seen.filter((s) => s.includes('$'))).toEqual([]);
    expect(seen.filter((s) => s.startsWith(name))).toEqual([`${name}:Opened`, `${name}:Closed`]);
  });

  /**
   * The classic "did it happen?" case: the server has written the append (it is in the log) but its answer
   * waits for the index (`setDelay`) when the node stops and cuts the call (CANCELLED on BatchAppend). The node
   * comes back with the write indexed; the adapter's retry must get the original result, not a second write.
   */
  async function appendWhoseAnswerIsLostInARestart(name: string, expected: 0 | 'any') {
    const event = testEvent();
    emulator.setDelay(300);
    const appending = store.append(name, [event], expected);
    await until(() => emulator.writesInFlight() > 0); // decided and in the log, not yet answered
    emulator.setDelay(0);
    await emulator.stop();
    await emulator.start();
    return { event, result: await appending };
  }

  it('retries an exact-expectation append whose answer was lost in a restart and gets the original result', async () => {
    const name = stream();
    await store.append(name, [testEvent()], 'no_stream');
    const { event, result } = await appendWhoseAnswerIsLostInARestart(name, 0);
    const written = await store.readStream(name);
    expect(written.map((e) => e.id)).toEqual([expect.any(String), event.id]);
    expect(result).toEqual({ nextRevision: 1, position: written[1].position });
  });

  it('retries an append with any whose answer was lost in a restart (id cache gone) and gets the original result, written once', async () => {
    const name = stream();
    await store.append(name, [testEvent()], 'no_stream');
    const { event, result } = await appendWhoseAnswerIsLostInARestart(name, 'any');
    const written = await store.readStream(name);
    expect(written.map((e) => e.id)).toEqual([expect.any(String), event.id]);
    expect(result).toEqual({ nextRevision: 1, position: written[1].position });
  });

  it('still reports a genuine conflict as WrongExpectedVersion with the actual revision', async () => {
    const name = stream();
    await store.append(name, testEvents(3), 'no_stream');
    const error = await failureOf(store.append(name, [testEvent()], 1));
    expect(error).toBeInstanceOf(WrongExpectedVersion);
    expect(error).toMatchObject({ stream: name, expected: 1, actual: 2 });
  });

  it('hands out nothing JSON.stringify cannot serialise: no bigint anywhere', async () => {
    const name = stream();
    const appended = await store.append(name, testEvents(2), 'no_stream');
    const read = await store.readStream(name);
    const all = await store.readAll({ filter: { streamCategories: [category] } });
    const subscription = store.subscribeToAll({ filter: { streamCategories: [category] } });
    const [batch] = [(await subscription[Symbol.asyncIterator]().next()).value];
    await subscription.close();
    expect(() => JSON.stringify({ appended, read, all, batch })).not.toThrow();
    expect(typeof read[0].revision).toBe('number');
  });

  it('answers ping while the server is up and fails it while the server is away', async () => {
    await expect(store.ping()).resolves.toBeUndefined();
    await emulator.stop();
    await expect(store.ping()).rejects.toBeInstanceOf(UnavailableError);
    await emulator.start();
    await expect(store.ping()).resolves.toBeUndefined();
  });

  it('ends its open subscriptions when it is closed', async () => {
    const own = EsdbEventStore.connect(emulator.connectionString);
    const subscription = own.subscribeToAll({ filter: { streamCategories: [category] } });
    const iterator = subscription[Symbol.asyncIterator]();
    await iterator.next(); // caught up on an empty category
    const next = iterator.next();
    await own.close();
    await expect(next).resolves.toEqual({ done: true, value: undefined });
  });
});
