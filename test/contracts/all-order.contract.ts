/**
 * Each stream's events appear in `$all` (readAll and subscribeToAll) in revision order, under
 * concurrent writers using every kind of expectation, as EventStoreDB keeps them. On PostgreSQL the
 * general append (idem_append: any, stream_exists, several events) reads a stream's revision and
 * then writes after it, and a fast-path single INSERT may take that revision in between (issue 12,
 * defect 3). An adapter may give a `raceWindowStore`: the same data through a store that waits
 * between that read and that write (PostgreSQL: the test-only setting `idem.test_race_delay_ms` on
 * its own pool), so fast-path writers race it on nearly every call.
 */
import { WrongExpectedVersion } from '../../src/event-store/errors';
import type { EventStore, EventToAppend, ExpectedRevision, RecordedEvent } from '../../src/event-store/event-store.port';
import { collect, readCategory, subscribeToCategory, testEvent, testEvents, uniqueCategory } from './test-events';

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

const refusedOrDone = (error: unknown) => {
  if (!(error instanceof WrongExpectedVersion)) throw error;
};

/** Appends at the stream's current revision, one event or two, until `done()` (at most 150 times). */
async function exactWriter(store: EventStore, stream: string, size: number, done: () => boolean): Promise<void> {
  for (let i = 0; i < 150 && !done(); i++) {
    const [last] = await store.readStream(stream, { direction: 'backwards', maxCount: 1 });
    await store.append(stream, testEvents(size, 'Exact'), last?.revision ?? 'no_stream').catch(refusedOrDone);
  }
}

export function describeAllOrder(subject: () => { store: EventStore; raceWindowStore?: EventStore }): void {
  describe('$all order', () => {
    describe('when writers with every kind of expectation race on the same streams', () => {
      it('delivers every stream in revision order, in readAll and in subscribeToAll', async () => {
        const { store, raceWindowStore = store } = subject();
        const category = uniqueCategory();
        const streams = [1, 2, 3].map((i) => `${category}-${i}`);
        const general: Array<() => [EventToAppend[], ExpectedRevision]> = [
          () => [[testEvent('Any')], 'any'],
          () => [[testEvent('Exists')], 'stream_exists'],
          () => [testEvents(2, 'AnyPair'), 'any'],
        ];
        // Two creators race for each new stream with no_stream.
        await Promise.all(
          streams.flatMap((stream) => [1, 2].map(() => store.append(stream, [testEvent('Created')], 'no_stream').catch(refusedOrDone))),
        );
        let slowDone = 0;
        const done = () => slowDone === streams.length;
        await Promise.all(
          streams.flatMap((stream) => [
            (async () => {
              for (let i = 0; i < 12; i++) await raceWindowStore.append(stream, ...general[i % general.length]());
              slowDone++;
            })(),
            exactWriter(store, stream, 1, done),
            exactWriter(store, stream, 1, done),
            exactWriter(raceWindowStore, stream, 2, done),
          ]),
        );
        const total = (await Promise.all(streams.map((s) => store.readStream(s)))).reduce((sum, events) => sum + events.length, 0);

        // readAll shows settled history only (PostgreSQL): wait until it holds every event.
        let all: RecordedEvent[] = [];
        while (all.length < total) all = await readCategory(store, category);
        const { events: live } = await collect(subscribeToCategory(store, category), (seen) => seen.length >= total);

        expect(outOfOrder(all)).toEqual([]);
        expect(outOfOrder(live)).toEqual([]);
        expect(live.map((e) => e.id)).toEqual(all.map((e) => e.id));
      });
    });
  });
}
