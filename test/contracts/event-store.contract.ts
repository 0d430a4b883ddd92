/**
 * The behaviours every event-store adapter must show. Run it from an adapter's spec:
 * `describeEventStoreContract('PostgresEventStore', () => ({ store, capabilities }))`.
 * Where EventStoreDB's documented behaviour and PostgreSQL's durable one differ, the adapter declares
 * which it has and the test checks that exact behaviour (reference/esdb.md §2.2).
 */
import { randomUUID } from 'node:crypto';
import { compareCheckpoints } from '../../src/event-store/checkpoint';
import { InvalidAppend, WrongExpectedVersion } from '../../src/event-store/errors';
import type { Checkpoint, EventStore, EventToAppend, ExpectedRevision } from '../../src/event-store/event-store.port';
import { describeAllOrder } from './all-order.contract';
import { describeDecisionTable } from './decision-table.contract';
import { describeFilterAlternatives } from './filter-alternatives.contract';
import { collect, readCategory, readCategorySettled, subscribeToCategory, testEvent, testEvents, uniqueCategory } from './test-events';

export interface EventStoreCapabilities {
  /**
   * An id already in the stream appended with `any`, or with an exact revision equal to the current one:
   * EventStoreDB writes it again ('appended'); the PostgreSQL store refuses ('conflict').
   */
  duplicateIdOutsideItsSlot: 'appended' | 'conflict';
  /**
   * Where an event id must be unique: EventStoreDB checks ids per stream only; the PostgreSQL store
   * keeps them unique across the store (as Message DB and Marten do) and refuses an id another stream holds.
   */
  eventIdScope: 'stream' | 'store';
  /** Limit the adapter was built with. */
  maxAppendBytes: number;
}

export interface ContractSubject {
  store: EventStore;
  capabilities: EventStoreCapabilities;
  /** The same data through a store that widens its internal races on purpose (see all-order.contract.ts). */
  raceWindowStore?: EventStore;
}

async function conflictOf(promise: Promise<unknown>): Promise<WrongExpectedVersion> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof WrongExpectedVersion) return error;
    throw error;
  }
  throw new Error('expected WrongExpectedVersion, but the append succeeded');
}

export function describeEventStoreContract(adapter: string, subject: () => ContractSubject): void {
  describe(`${adapter} (event-store contract)`, () => {
    let store: EventStore;
    let capabilities: EventStoreCapabilities;
    let category: string;
    const stream = (key: string = randomUUID()) => `${category}-${key}`;

    beforeEach(() => {
      ({ store, capabilities } = subject());
      category = uniqueCategory();
    });

    describe('append with an expectation', () => {
      it('creates a stream with no_stream and numbers its events from 0', async () => {
        const name = stream();
        const events = testEvents(3);
        const result = await store.append(name, events, 'no_stream');
        expect(result.nextRevision).toBe(2);
        const read = await store.readStream(name);
        expect(read.map((e) => [e.id, e.revision, e.type, e.data])).toEqual(events.map((e, i) => [e.id, i, e.type, e.data]));
        expect(read[0].metadata).toEqual(events[0].metadata);
        expect(read[2].position).toBe(result.position);
      });

      const conflicts: Array<[string, number, ExpectedRevision, number | 'no_stream']> = [
        ['no_stream on a stream that has events', 2, 'no_stream', 1],
        ['stream_exists on a stream never written', 0, 'stream_exists', 'no_stream'],
        ['exact 0 on a stream never written', 0, 0, 'no_stream'],
        ['an exact revision ahead of the stream', 2, 5, 1],
        ['an exact revision behind the stream with new ids', 2, 0, 1],
      ];
      it.each(conflicts)('refuses %s with the actual revision', async (_label, existing, expected, actual) => {
        const name = stream();
        if (existing) await store.append(name, testEvents(existing), 'no_stream');
        const conflict = await conflictOf(store.append(name, [testEvent()], expected));
        expect(conflict).toMatchObject({ stream: name, expected, actual });
        expect(await store.readStream(name)).toHaveLength(existing);
      });

      it('appends with the exact current revision, with any, and with stream_exists', async () => {
        const name = stream();
        await store.append(name, [testEvent()], 'no_stream');
        expect((await store.append(name, [testEvent()], 0)).nextRevision).toBe(1);
        expect((await store.append(name, [testEvent()], 'any')).nextRevision).toBe(2);
        expect((await store.append(name, [testEvent()], 'stream_exists')).nextRevision).toBe(3);
        expect((await store.append(stream(), [testEvent()], 'any')).nextRevision).toBe(0);
      });

      it('lets exactly one of two concurrent no_stream appends win, 200 times over', async () => {
        for (let round = 0; round < 200; round++) {
          const name = stream(`race${round}`);
          const outcomes = await Promise.allSettled([
            store.append(name, [testEvent('A')], 'no_stream'),
            store.append(name, [testEvent('B')], 'no_stream'),
          ]);
          const won = outcomes.filter((o) => o.status === 'fulfilled');
          const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
          expect(won).toHaveLength(1);
          expect(lost).toHaveLength(1);
          expect(lost[0].reason).toBeInstanceOf(WrongExpectedVersion);
          expect(lost[0].reason).toMatchObject({ expected: 'no_stream', actual: 0 });
          expect(await store.readStream(name)).toHaveLength(1);
        }
      });

      it('lets exactly one of eight writers with the same exact revision win', async () => {
        const name = stream();
        await store.append(name, [testEvent()], 'no_stream');
        const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => store.append(name, [testEvent()], 0)));
        expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
        expect((await store.readStream(name)).map((e) => e.revision)).toEqual([0, 1]);
      });

      it('keeps a stream gap-free and every acknowledged append in place when every kind of expectation races on it', async () => {
        // Single events at an exact revision, batches at an exact revision, any and stream_exists,
        // all at once on one stream: the kinds may take different paths inside an adapter.
        const name = stream();
        await store.append(name, [testEvent()], 'no_stream');
        const acknowledged: Array<{ ids: string[]; nextRevision: number }> = [];
        for (let round = 0; round < 25; round++) {
          const [last] = await store.readStream(name, { direction: 'backwards', maxCount: 1 });
          const writes: Array<[EventToAppend[], ExpectedRevision]> = [
            [[testEvent()], last.revision],
            [[testEvent()], last.revision],
            [testEvents(3), last.revision],
            [[testEvent()], 'any'],
            [testEvents(2), 'any'],
            [[testEvent()], 'stream_exists'],
          ];
          const outcomes = await Promise.allSettled(writes.map(([events, expected]) => store.append(name, events, expected)));
          outcomes.forEach((outcome, i) => {
            const [events, expected] = writes[i];
            if (outcome.status === 'fulfilled') {
              acknowledged.push({ ids: events.map((e) => e.id), nextRevision: outcome.value.nextRevision });
            } else {
              expect(outcome.reason).toBeInstanceOf(WrongExpectedVersion);
              expect(typeof expected).toBe('number'); // any and stream_exists never lose on an existing stream
            }
          });
        }
        const history = await store.readStream(name);
        expect(history.map((e) => e.revision)).toEqual(history.map((_, i) => i));
        for (const { ids, nextRevision } of acknowledged) {
          const written = history.slice(nextRevision - ids.length + 1, nextRevision + 1).map((e) => e.id);
          expect(written).toEqual(ids);
        }
        expect(history).toHaveLength(1 + acknowledged.reduce((sum, a) => sum + a.ids.length, 0));
      });
    });

    describeDecisionTable(subject);
    describeAllOrder(subject);
    describeFilterAlternatives(subject);

    describe('idempotent re-append (EventStoreDB scenario table, esdb.md §2.2)', () => {
      let name: string;
      let original: EventToAppend[];
      let originalLast: { nextRevision: number; position: string };

      beforeEach(async () => {
        name = stream();
        original = testEvents(6);
        originalLast = await store.append(name, original, 'no_stream');
      });

      // "Writes nothing" needs everything written before the count to have settled (readCategorySettled).
      const countInCategory = async () => (await readCategorySettled(store, category)).length;

      it('returns the original result for e0..e5 with no_stream after a lost acknowledgement, writing nothing', async () => {
        const retried = await store.append(name, original, 'no_stream');
        expect(retried).toEqual(originalLast);
        expect(await countInCategory()).toBe(6);
      });

      it('treats a prefix (e0 with no_stream) as the original write of e0', async () => {
        const [first] = await store.readStream(name, { maxCount: 1 });
        expect(await store.append(name, [original[0]], 'no_stream')).toEqual({ nextRevision: 0, position: first.position });
        expect(await countInCategory()).toBe(6);
      });

      it('recognises e1 at exact 0', async () => {
        expect((await store.append(name, [original[1]], 0)).nextRevision).toBe(1);
        expect(await countInCategory()).toBe(6);
      });

      it('refuses e0 at exact 4 (revision 5 holds another event)', async () => {
        expect(await conflictOf(store.append(name, [original[0]], 4))).toMatchObject({ actual: 5 });
      });

      it('refuses e0 at exact 6 (ahead of the stream)', async () => {
        expect(await conflictOf(store.append(name, [original[0]], 6))).toMatchObject({ actual: 5 });
      });

      it('refuses a partial overlap (e0, e1, new with no_stream)', async () => {
        expect(await conflictOf(store.append(name, [original[0], original[1], testEvent()], 'no_stream'))).toMatchObject({ actual: 5 });
        expect(await countInCategory()).toBe(6);
      });

      it('recognises e1 appended with any and answers with its own revision', async () => {
        expect((await store.append(name, [original[1]], 'any')).nextRevision).toBe(1);
        expect(await countInCategory()).toBe(6);
      });

      it('refuses e0 followed by a new event with any', async () => {
        await conflictOf(store.append(name, [original[0], testEvent()], 'any'));
        expect(await countInCategory()).toBe(6);
      });

      it('still recognises e0..e5 with no_stream after other events were appended', async () => {
        await store.append(name, testEvents(4), 5);
        expect(await store.append(name, original, 'no_stream')).toEqual(originalLast);
        expect(await countInCategory()).toBe(10);
      });

      it('handles e0 at the current revision as the adapter declares', async () => {
        const attempt = store.append(name, [original[0]], 5);
        if (capabilities.duplicateIdOutsideItsSlot === 'appended') {
          expect((await attempt).nextRevision).toBe(6);
        } else {
          expect(await conflictOf(attempt)).toMatchObject({ actual: 5 });
          expect(await countInCategory()).toBe(6);
        }
      });

      it('handles an id another stream already holds as the adapter declares', async () => {
        const other = stream();
        const attempt = store.append(other, [original[2]], 'no_stream');
        if (capabilities.eventIdScope === 'stream') {
          expect((await attempt).nextRevision).toBe(0);
        } else {
          await expect(attempt).rejects.toMatchObject({ code: 'EVENT_STORE.INVALID_EVENT_ID' });
          expect(await store.readStream(other)).toEqual([]);
          // A batch with one such id is refused whole.
          await expect(store.append(other, [testEvent(), original[3]], 'any')).rejects.toBeInstanceOf(InvalidAppend);
          expect(await store.readStream(other)).toEqual([]);
        }
        expect(await countInCategory()).toBe(capabilities.eventIdScope === 'stream' ? 7 : 6);
      });
    });

    describe('reads', () => {
      it('reads a stream forwards and backwards from a revision with a limit', async () => {
        const name = stream();
        await store.append(name, testEvents(10), 'no_stream');
        expect((await store.readStream(name, { fromRevision: 3, maxCount: 4 })).map((e) => e.revision)).toEqual([3, 4, 5, 6]);
        expect((await store.readStream(name, { direction: 'backwards', maxCount: 3 })).map((e) => e.revision)).toEqual([9, 8, 7]);
        expect((await store.readStream(name, { direction: 'backwards', fromRevision: 4, maxCount: 2 })).map((e) => e.revision)).toEqual([
          4, 3,
        ]);
      });

      it('reads a stream that was never written as empty', async () => {
        expect(await store.readStream(stream())).toEqual([]);
      });

      it('reads all forwards and backwards from a checkpoint, filtered by category and type', async () => {
        const a = stream('a');
        const b = stream('b');
        await store.append(a, [testEvent('Opened'), testEvent('Closed')], 'no_stream');
        await store.append(b, [testEvent('Opened')], 'no_stream');
        await store.append(`other${category}-x`, [testEvent('Opened')], 'no_stream');
        const forwards = await readCategorySettled(store, category);
        expect(forwards.map((e) => [e.stream, e.type])).toEqual([
          [a, 'Opened'],
          [a, 'Closed'],
          [b, 'Opened'],
        ]);
        const afterFirst = await store.readAll({ after: forwards[0].position, filter: { streamCategories: [category] } });
        expect(afterFirst.map((e) => e.id)).toEqual(forwards.slice(1).map((e) => e.id));
        const backwards = await store.readAll({ direction: 'backwards', maxCount: 2, filter: { streamCategories: [category] } });
        expect(backwards.map((e) => e.id)).toEqual([forwards[2].id, forwards[1].id]);
        const beforeLast = await store.readAll({
          direction: 'backwards',
          after: forwards[2].position,
          filter: { streamCategories: [category] },
        });
        expect(beforeLast.map((e) => e.id)).toEqual([forwards[1].id, forwards[0].id]);
        const opened = await store.readAll({ filter: { streamCategories: [category], eventTypes: ['Opened'] } });
        expect(opened.map((e) => e.stream)).toEqual([a, b]);
      });
    });

    describe('subscribeToAll', () => {
      it('delivers history, says it caught up, then delivers live events, then resumes after a checkpoint', async () => {
        const name = stream();
        await store.append(name, testEvents(3), 'no_stream');
        const subscription = subscribeToCategory(store, category);
        const seen: string[] = [];
        let caughtUpAfter = -1;
        let resumeFrom: string | undefined;
        for await (const batch of subscription) {
          seen.push(...batch.events.map((e) => e.id));
          if (batch.caughtUp && caughtUpAfter < 0) {
            caughtUpAfter = seen.length;
            if (seen.length === 3) await store.append(name, testEvents(2), 2);
          }
          if (seen.length === 3 && !resumeFrom) resumeFrom = batch.checkpoint;
          if (seen.length >= 5) break;
        }
        await subscription.close();
        expect(caughtUpAfter).toBe(3);
        const history = await store.readStream(name);
        expect(seen).toEqual(history.map((e) => e.id));
        const resumed = await collect(subscribeToCategory(store, category, { after: resumeFrom as never }), (events) => events.length >= 2);
        expect(resumed.events.map((e) => e.revision)).toEqual([3, 4]);
      });

      it('delivers every event of 16 concurrent writers exactly once, in readAll order, and resumes from any checkpoint', async () => {
        const writers = 16;
        const perWriter = 60;
        const subscription = collect(
          subscribeToCategory(store, category, { maxBatchSize: 50 }),
          (events) => events.length >= writers * perWriter,
        );
        await Promise.all(
          Array.from({ length: writers }, async (_, w) => {
            for (let i = 0; i < perWriter; i++) await store.append(stream(`w${w}`), [testEvent()], i === 0 ? 'no_stream' : i - 1);
          }),
        );
        const { events, checkpoints } = await subscription;
        const history = await readCategory(store, category);
        expect(events.map((e) => e.id)).toEqual(history.map((e) => e.id));
        expect(new Set(events.map((e) => e.id)).size).toBe(writers * perWriter);
        for (const checkpoint of [checkpoints[1], checkpoints[Math.floor(checkpoints.length / 2)]]) {
          // A checkpoint is an event's position or, after a page with nothing for this filter, the
          // settled horizon between events: either way, resuming from it yields exactly the events after it.
          const delivered = events.filter((e) => compareCheckpoints(e.position, checkpoint as Checkpoint) <= 0).length;
          const resumed = await collect(
            subscribeToCategory(store, category, { after: checkpoint as never }),
            (seen) => seen.length >= events.length - delivered,
          );
          expect(resumed.events.map((e) => e.id)).toEqual(events.slice(delivered).map((e) => e.id));
        }
      });
    });

    describe('documents', () => {
      // Awkward text a naive split of many documents sent as one (quotes, brackets, commas, escapes,
      // separators JSON allows raw) would break; every event of a many-event append and every single
      // one comes back with exactly its data and metadata, in order.
      const awkward = ['"],[{"', '\\"\\', '}, {', 'line\nbreak\ttab', '\u2028\u2029', 'é ✓ 𝄞', '[1, 2]', ''];
      it('returns data and metadata as appended, one event or many', async () => {
        const events = awkward.map((text, i) => {
          const event = testEvent('Awkward', { text, nested: { list: [text, i, null, true, { deep: [text] }] }, i });
          return { ...event, metadata: { ...event.metadata, note: text } };
        });
        const many = stream();
        const one = stream();
        await store.append(many, events, 'no_stream');
        await store.append(one, [{ ...events[0], id: randomUUID() }], 'no_stream');
        const read = await store.readStream(many);
        expect(read.map(({ id, type, data, metadata }) => ({ id, type, data, metadata }))).toEqual(
          events.map(({ id, type, data, metadata }) => ({ id, type, data, metadata })),
        );
        expect((await store.readStream(one)).map((e) => e.data)).toEqual([events[0].data]);
      });
    });

    describe('bad input', () => {
      const invalid: Array<[string, string, string]> = [
        ['an empty stream name', '', 'Happened'],
        ['a stream name with a control character', 'order-\u0007', 'Happened'],
        ['a stream name starting with $', '$order-1', 'Happened'],
        ['an over-long stream name', `order-${'x'.repeat(300)}`, 'Happened'],
        ['an empty event type', 'order-1', ''],
        ['an event type with a newline', 'order-1', 'Hap\npened'],
      ];
      it.each(invalid)('refuses %s and writes nothing', async (_label, name, type) => {
        const real = name.startsWith('order-1') ? `${category}-1` : name;
        await expect(store.append(real, [testEvent(type)], 'any')).rejects.toBeInstanceOf(InvalidAppend);
        expect(await readCategorySettled(store, category)).toEqual([]);
      });

      it('refuses an append over the size limit, whole', async () => {
        const name = stream();
        const big = testEvent('Big', { blob: 'x'.repeat(capabilities.maxAppendBytes) });
        await expect(store.append(name, [testEvent(), big], 'no_stream')).rejects.toMatchObject({
          code: 'EVENT_STORE.INVALID_EVENT_TOO_LARGE',
        });
        expect(await store.readStream(name)).toEqual([]);
      });

      // The read models are PostgreSQL's whichever store holds the events, and jsonb holds neither.
      it.each([
        ['NUL in the data', { text: 'nul \u0000 here' }, {}],
        ['a lone UTF-16 surrogate in the data', { text: 'half \ud800 a pair' }, {}],
        ['a lone UTF-16 surrogate in a key of the metadata', {}, { ['\udc00']: 'x' }],
      ])('refuses an event holding %s, whole, and keeps the text "\\u0000" and valid pairs', async (_label, data, extra) => {
        const name = stream();
        const bad = { ...testEvent('Happened', data), metadata: { ...testEvent().metadata, ...extra } };
        await expect(store.append(name, [testEvent(), bad], 'no_stream')).rejects.toMatchObject({ code: 'EVENT_STORE.INVALID_EVENT_DATA' });
        expect(await store.readStream(name)).toEqual([]);
        const fine = testEvent('Happened', { text: 'a pair 😀 and the text \\u0000' });
        await store.append(name, [fine], 'no_stream');
        expect((await store.readStream(name))[0].data).toEqual({ text: 'a pair 😀 and the text \\u0000' });
      });

      it('refuses an event id that is not a UUID and the same id twice in one append', async () => {
        const name = stream();
        await expect(store.append(name, [{ ...testEvent(), id: 'not-a-uuid' }], 'any')).rejects.toBeInstanceOf(InvalidAppend);
        const twice = testEvent();
        await expect(store.append(name, [twice, twice], 'any')).rejects.toBeInstanceOf(InvalidAppend);
        expect(await store.readStream(name)).toEqual([]);
      });
    });
  });
}
