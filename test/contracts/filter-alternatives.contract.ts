/**
 * Filters with alternatives (`EventFilter.anyOf`): an event passes when it matches one alternative,
 * each alternative ANDing its own categories and types, and the filter's own fields ANDed with them.
 * A lane's shared read (src/subscriptions/event-filter.ts, unionFilter) relies on it to fetch every
 * order event and the import runs' lifecycle, but none of an import's processed records.
 */
import { compareCheckpoints } from '../../src/event-store/checkpoint';
import type { Checkpoint, EventFilter, EventStore, RecordedEvent } from '../../src/event-store/event-store.port';
import { collect, testEvent, uniqueCategory } from './test-events';

interface Appended {
  id: string;
  stream: string;
  type: string;
}

export function describeFilterAlternatives(subject: () => { store: EventStore }): void {
  describe('filters with alternatives (anyOf)', () => {
    let store: EventStore;
    let orders: string;
    let imports: string;
    let others: string;
    /** A type only this test's `others` streams use, for an alternative with types and no categories. */
    let flagged: string;

    beforeEach(() => {
      store = subject().store;
      [orders, imports, others] = [uniqueCategory(), uniqueCategory(), uniqueCategory()];
      flagged = `Flagged${others}`;
    });

    const ofCategory = (e: Appended, category: string) => e.stream.startsWith(`${category}-`);
    /** Every order event, and the import runs' ImportRunStarted: not their processed records. */
    const ordersAndRunStarts = (): EventFilter => ({
      anyOf: [{ streamCategories: [orders] }, { streamCategories: [imports], eventTypes: ['ImportRunStarted'] }],
    });
    const passesOrdersAndRunStarts = (e: Appended) => ofCategory(e, orders) || (ofCategory(e, imports) && e.type === 'ImportRunStarted');

    /**
     * Per run, one append after another (so the log holds them in this order): an order with a type no
     * filter names, an import run with its records, and a stream of another category with a run start
     * (not an import's) and a flagged event.
     */
    async function appendRuns(label: string, runs = 2): Promise<Appended[]> {
      const appended: Appended[] = [];
      const write = async (stream: string, types: string[]) => {
        const events = types.map((type) => testEvent(type));
        await store.append(stream, events, 'no_stream');
        appended.push(...events.map((e) => ({ id: e.id, stream, type: e.type })));
      };
      for (let run = 0; run < runs; run++) {
        await write(`${orders}-${label}${run}`, ['ChargeRequested', 'SomeOrderEventNobodyListed']);
        await write(`${imports}-${label}${run}`, [
          'ImportRunStarted',
          'ImportRecordProcessed',
          'ImportRecordProcessed',
          'ImportRunCompleted',
        ]);
        await write(`${others}-${label}${run}`, ['ImportRunStarted', flagged]);
      }
      return appended;
    }

    const ids = (events: Array<RecordedEvent | Appended>) => events.map((e) => e.id);

    it('reads, forwards, backwards and from a checkpoint, exactly the events one alternative passes, in log order', async () => {
      const wanted = (await appendRuns('r')).filter(passesOrdersAndRunStarts);
      const forwards = await store.readAll({ filter: ordersAndRunStarts() });
      expect(ids(forwards)).toEqual(ids(wanted));
      const afterSecond = await store.readAll({ after: forwards[1].position, filter: ordersAndRunStarts() });
      expect(ids(afterSecond)).toEqual(ids(wanted.slice(2)));
      const backwards = await store.readAll({ direction: 'backwards', maxCount: 3, filter: ordersAndRunStarts() });
      expect(ids(backwards)).toEqual(ids(wanted.slice(-3).reverse()));
    });

    it('ANDs the filter’s own fields with its alternatives, of which one that restricts nothing lets all through', async () => {
      const appended = await appendRuns('a');
      const filter = { eventTypes: ['ImportRunStarted'], anyOf: [{ streamCategories: [imports] }, { streamCategories: [orders] }] };
      const wanted = appended.filter((e) => e.type === 'ImportRunStarted' && ofCategory(e, imports));
      expect(ids(await store.readAll({ filter }))).toEqual(ids(wanted));
      // An alternative that restricts nothing leaves only the filter's own fields.
      const ownOnly = { streamCategories: [imports], anyOf: [{ streamCategories: [orders] }, {}] };
      expect(ids(await store.readAll({ filter: ownOnly }))).toEqual(ids(appended.filter((e) => ofCategory(e, imports))));
    });

    const subscriptionCases: Array<[string, () => EventFilter, (e: Appended) => boolean]> = [
      ['alternatives that each name categories', ordersAndRunStarts, passesOrdersAndRunStarts],
      [
        'an alternative that names only types',
        () => ({ anyOf: [{ streamCategories: [orders] }, { eventTypes: [flagged] }] }),
        (e) => ofCategory(e, orders) || e.type === flagged,
      ],
    ];

    it.each(subscriptionCases)(
      'subscribes to history then live events with %s, delivering exactly what passes, in log order, resumable',
      async (_, filter, passes) => {
        const history = await appendRuns('h');
        const expected = history.filter(passes).length * 2;
        const subscription = collect(store.subscribeToAll({ filter: filter(), maxBatchSize: 3 }), (events) => events.length >= expected);
        const live = await appendRuns('l');
        const { events, checkpoints } = await subscription;
        const wanted = [...history, ...live].filter(passes);
        expect(ids(events)).toEqual(ids(wanted));

        const checkpoint = checkpoints[1] as Checkpoint;
        const delivered = events.filter((e) => compareCheckpoints(e.position, checkpoint) <= 0).length;
        const resumed = await collect(
          store.subscribeToAll({ after: checkpoint, filter: filter() }),
          (seen) => seen.length >= wanted.length - delivered,
        );
        expect(ids(resumed.events)).toEqual(ids(wanted.slice(delivered)));
      },
    );
  });
}
