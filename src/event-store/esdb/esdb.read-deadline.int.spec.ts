/**
 * The read deadline is about progress (esdb.read-deadline.ts): a long read that a slow server answers
 * steadily runs to its end, through the real 6.2.1 client, while a server that sends nothing for the
 * deadline still fails the read as DeadlineExceededError (store-unavailable).
 */
import { DeadlineExceededError } from '@eventstore/db-client';
import { startEsdbEmulator, type EsdbEmulator } from '../../../test/esdb-emulator';
import { testEvents, uniqueCategory } from '../../../test/contracts/test-events';
import { isStoreUnavailable } from '../store-unavailable';
import { EsdbEventStore } from './esdb.event-store';

/**
 * 400 ms failed once in a loaded CI run (Node 24): a gap of more than 300 ms past the pace between two events
 * (the emulator shares the test's process and event loop). The deadline is what a stall must outlast.
 */
const READ_DEADLINE_MS = 1_200;
/** Each event a quarter of the deadline apart: the whole read takes four times the deadline. */
const PACE_MS = READ_DEADLINE_MS / 4;
const EVENTS = 16;

describe('EsdbEventStore reads on a slow server', () => {
  let emulator: EsdbEmulator;
  let store: EsdbEventStore;
  const category = uniqueCategory();
  const stream = `${category}-1`;

  beforeAll(async () => {
    emulator = await startEsdbEmulator({ systemEvents: false });
    store = EsdbEventStore.connect(emulator.connectionString, { readDeadlineMs: READ_DEADLINE_MS });
    await store.append(stream, testEvents(EVENTS), 'no_stream');
  });
  afterEach(() => {
    emulator.setReadPace(0);
    emulator.setDelay(0);
  });
  afterAll(async () => {
    await store.close();
    await emulator.close();
  });

  it('reads a whole stream that takes several deadlines to arrive, as long as events keep coming', async () => {
    emulator.setReadPace(PACE_MS);
    const startedAt = Date.now();
    const events = await store.readStream(stream);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(EVENTS * PACE_MS - 50);
    expect(events.map((e) => e.data)).toEqual(Array.from({ length: EVENTS }, (_, index) => ({ index })));
  });

  it('reads $all the same way', async () => {
    emulator.setReadPace(PACE_MS);
    const startedAt = Date.now();
    const events = await store.readAll({ filter: { streamCategories: [category] } });
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(EVENTS * PACE_MS - 50);
    expect(events).toHaveLength(EVENTS);
  });

  it('still fails a read on which the server sends nothing for the deadline', async () => {
    emulator.setDelay(3 * READ_DEADLINE_MS);
    const error = await store.readStream(stream).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect(isStoreUnavailable(error)).toBe(true);
  });
});
