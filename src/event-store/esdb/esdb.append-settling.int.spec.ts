/**
 * Appends the server refuses because of its state, or answers Timeout and commits anyway, are settled
 * by sending the same ids again until the server gives a verdict: the original result, the events in
 * the stream once. Through the real client, on both append paths and every expectation kind.
 */
import { startEsdbEmulator, type EsdbEmulator, type NodeState } from '../../../test/esdb-emulator';
import { testEvent, uniqueCategory } from '../../../test/contracts/test-events';
import type { ExpectedRevision } from '../event-store.port';
import { EsdbEventStore } from './esdb.event-store';
import { until } from '../../../test/esdb-emulator/fidelity-helpers';

const KINDS: Array<[string, ExpectedRevision]> = [
  ['any', 'any'],
  ['stream_exists', 'stream_exists'],
  ['no_stream', 'no_stream'],
  ['an exact revision', 0],
];

describe.each([
  ['BatchAppend', true],
  ['Append', false],
])('EsdbEventStore append settling over %s', (_path, batchAppend) => {
  let emulator: EsdbEmulator;
  let store: EsdbEventStore;
  let category: string;

  beforeAll(async () => {
    emulator = await startEsdbEmulator({ batchAppend, writeTimeoutMs: 300 });
    store = EsdbEventStore.connect(emulator.connectionString);
  });

  afterAll(async () => {
    await store.close();
    await emulator.close();
  });

  beforeEach(() => {
    category = uniqueCategory();
    emulator.setNodeState({ kind: 'leader' });
    emulator.setDelay(0);
  });

  /** A stream ready for the expectation: one event for stream_exists and exact 0, none otherwise. */
  async function streamFor(expected: ExpectedRevision): Promise<string> {
    const stream = `${category}-1`;
    if (expected === 'stream_exists' || expected === 0) await store.append(stream, [testEvent()], 'no_stream');
    return stream;
  }

  describe.each<[string, NodeState]>([
    ['not ready', { kind: 'not-ready' }],
    ['too busy', { kind: 'too-busy' }],
  ])('when the server is %s', (_state, state) => {
    it.each(KINDS)('retries an append with %s until it is served, writing it once', async (_kind, expected) => {
      const stream = await streamFor(expected);
      const event = testEvent();
      const refusedBefore = emulator.stats.notHandled;
      emulator.setNodeState(state);
      const appending = store.append(stream, [event], expected);
      await until(() => emulator.stats.notHandled > refusedBefore);
      emulator.setNodeState({ kind: 'leader' });
      const result = await appending;
      const written = await store.readStream(stream);
      expect(written.filter((e) => e.id === event.id)).toHaveLength(1);
      expect(result).toEqual({ nextRevision: written.at(-1)!.revision, position: written.at(-1)!.position });
    });
  });

  describe('when a write times out and commits afterwards', () => {
    it.each(KINDS)('settles an append with %s by re-sending the same ids: the original result, written once', async (_kind, expected) => {
      const stream = await streamFor(expected);
      const event = testEvent();
      const timedOutBefore = emulator.stats.timedOut;
      emulator.setDelay(700); // beyond the 300 ms write timeout: the client hears Timeout, the write lands at 700 ms
      const appending = store.append(stream, [event], expected);
      await until(() => emulator.writesInFlight() > 0);
      emulator.setDelay(0);
      const result = await appending;
      expect(emulator.stats.timedOut).toBeGreaterThan(timedOutBefore);
      const written = await store.readStream(stream);
      expect(written.filter((e) => e.id === event.id)).toHaveLength(1);
      const mine = written.find((e) => e.id === event.id)!;
      expect(result).toEqual({ nextRevision: mine.revision, position: mine.position });
    });
  });
});

describe('EsdbEventStore on a follower', () => {
  let leader: EsdbEmulator;
  let follower: EsdbEmulator;
  let store: EsdbEventStore;

  beforeAll(async () => {
    leader = await startEsdbEmulator();
    follower = await startEsdbEmulator();
    follower.setNodeState({ kind: 'follower', leader: { host: '127.0.0.1', port: leader.port } });
    store = EsdbEventStore.connect(follower.connectionString);
  });

  afterAll(async () => {
    await store.close();
    await Promise.all([leader.close(), follower.close()]);
  });

  it.each<ExpectedRevision>(['any', 'no_stream'])(
    "follows the leader's endpoint from the not-leader answer and appends there (%s)",
    async (expected) => {
      const stream = `${uniqueCategory()}-1`;
      const event = testEvent();
      const result = await store.append(stream, [event], expected);
      expect(follower.stats.notHandled).toBeGreaterThan(0);
      const written = await store.readStream(stream);
      expect(written.map((e) => e.id)).toEqual([event.id]);
      expect(result).toEqual({ nextRevision: 0, position: written[0].position });
    },
  );
});
