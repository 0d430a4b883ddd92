/**
 * Each stream's events appear in `$all` in revision order (issue 12, defect 3). The general append
 * (idem_append: any, stream_exists, several events) reads the stream's revision and then writes
 * after it; a fast-path single INSERT may take that revision in between. The test-only setting
 * `idem.test_race_delay_ms`, set only on this file's "slow" pool, widens that window from
 * microseconds to milliseconds, so fast-path writers race the general append on nearly every call.
 */
import { Pool } from 'pg';
import { WrongExpectedVersion } from '../errors';
import type { EventToAppend, ExpectedRevision, RecordedEvent } from '../event-store.port';
import { collect, readCategory, subscribeToCategory, testEvent, testEvents, uniqueCategory } from '../../../test/contracts/test-events';
import { createTestDatabase } from '../../../test/harness/test-database';
import { PostgresEventStore } from './postgres.event-store';

let fastPool: Pool;
let slowPool: Pool;
let fast: PostgresEventStore;
let slow: PostgresEventStore;

beforeAll(async () => {
  const url = await createTestDatabase('all_order');
  fastPool = new Pool({ connectionString: url, max: 8 });
  slowPool = new Pool({ connectionString: url, max: 4, options: '-c idem.test_race_delay_ms=15' });
  fast = new PostgresEventStore(fastPool);
  slow = new PostgresEventStore(slowPool);
  await fast.migrate();
});
afterAll(async () => {
  await Promise.all([fast.close(), slow.close()]);
  await Promise.all([fastPool.end(), slowPool.end()]);
});

/** The first few places where a stream's revision does not follow the one before it. */
function outOfOrder(events: RecordedEvent[]): string[] {
  const last = new Map<string, number>();
  const problems: string[] = [];
  for (const event of events) {
    const before = last.get(event.stream) ?? -1;
    if (event.revision <= before) problems.push(`${event.stream}: revision ${event.revision} after ${before}`);
    last.set(event.stream, Math.max(before, event.revision));
  }
  return problems.length > 5 ? [...problems.slice(0, 5), `… ${problems.length - 5} more`] : problems;
}

/** Appends at the stream's current revision, one event at a time, until `done()`. */
async function fastWriter(stream: string, done: () => boolean): Promise<void> {
  while (!done()) {
    const [last] = await fast.readStream(stream, { direction: 'backwards', maxCount: 1 });
    await fast.append(stream, [testEvent('Fast')], last.revision).catch((error) => {
      if (!(error instanceof WrongExpectedVersion)) throw error;
    });
  }
}

describe('PostgresEventStore $all', () => {
  describe('when fast-path writers take the revision a general append read as free', () => {
    it('still delivers every stream in revision order, in readAll and in subscribeToAll', async () => {
      const category = uniqueCategory();
      const streams = [1, 2, 3].map((i) => `${category}-${i}`);
      const general: Array<() => [EventToAppend[], ExpectedRevision]> = [
        () => [[testEvent('Any')], 'any'],
        () => [[testEvent('Exists')], 'stream_exists'],
        () => [testEvents(2, 'AnyPair'), 'any'],
      ];
      await Promise.all(streams.map((stream) => fast.append(stream, [testEvent()], 'no_stream')));
      let slowDone = 0;
      await Promise.all(
        streams.flatMap((stream) => [
          (async () => {
            for (let i = 0; i < 12; i++) await slow.append(stream, ...general[i % general.length]());
            slowDone++;
          })(),
          fastWriter(stream, () => slowDone === streams.length),
          fastWriter(stream, () => slowDone === streams.length),
        ]),
      );
      const total = (await Promise.all(streams.map((s) => fast.readStream(s)))).reduce((sum, events) => sum + events.length, 0);

      // readAll shows settled history only: wait until it holds every event.
      let all: RecordedEvent[] = [];
      while (all.length < total) all = await readCategory(fast, category);
      const { events: live } = await collect(subscribeToCategory(fast, category), (seen) => seen.length >= total);

      expect(outOfOrder(all)).toEqual([]);
      expect(outOfOrder(live)).toEqual([]);
      expect(live.map((e) => e.id)).toEqual(all.map((e) => e.id));
    });
  });
});
