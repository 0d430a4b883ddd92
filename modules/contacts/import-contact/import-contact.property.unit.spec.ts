/**
 * Invariant 5 (DESIGN.md §9) as a property: whatever order one contact's updates arrive in, however
 * often each comes, the contact ends at the freshest record, its history only ever moves forwards
 * (one revision per distinct version at most), and whatever arrives behind the stored record is
 * `skipped_stale` or `duplicate`, never appended.
 */
import fc from 'fast-check';
import type { ContactEvent } from '../contact.events';
import { initialContactState, type ContactState } from '../contact.state';
import type { ContactRecord } from './contact-record';
import { compareFreshness } from './freshness';
import { freshnessOf, importContactDecider, judgeContact } from './import-contact.decision';

/** Delivers `records[i]` for each i of `order` the way handleCommand does: decide on the folded state, append. */
function deliver(records: ContactRecord[], order: number[]) {
  let state: ContactState = initialContactState();
  const appended: ContactEvent[] = [];
  const outcomes = order.map((i, seq) => {
    const verdict = judgeContact({ source: 'crm', record: records[i], runId: 'prop', seq }, state);
    const decided = importContactDecider.decide({ source: 'crm', record: records[i], runId: 'prop', seq }, state);
    for (const { event } of decided) {
      appended.push(event);
      state = importContactDecider.evolve(state, event);
    }
    return { record: records[i], ...verdict };
  });
  return { state, appended, outcomes };
}

/** Every index at least once, some several times, in any order. */
const deliveries = (n: number) =>
  fc.tuple(fc.array(fc.nat({ max: n - 1 }), { maxLength: 2 * n }), fc.nat()).chain(([extra]) =>
    fc.shuffledSubarray([...Array.from({ length: n }, (_, i) => i), ...extra], {
      minLength: n + extra.length,
      maxLength: n + extra.length,
    }),
  );

/** Distinct versions; a few share a neighbour's content (same checksum, fresher version); some are deletes. */
const versionedUpdates = fc
  .array(
    fc.record({
      gap: fc.integer({ min: 1, max: 3 }),
      content: fc.constantFrom('a', 'b', 'c'),
      deleted: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
    }),
    { minLength: 1, maxLength: 12 },
  )
  .map((steps) => {
    let version = 0;
    return steps.map(({ gap, content, deleted }, i): ContactRecord => {
      version += gap;
      return deleted
        ? { sourceId: '1', version, eventId: `e${i}`, deleted: true }
        : { sourceId: '1', version, eventId: `e${i}`, checksum: `sum-${content}`, fields: { content } };
    });
  });

/** updatedAt only, with ties in time and in checksum, settled by checksum then event id (one id names one source event). */
const timedUpdates = fc
  .uniqueArray(
    fc.record({ second: fc.integer({ min: 0, max: 3 }), content: fc.constantFrom('a', 'b'), id: fc.integer({ min: 0, max: 9 }) }),
    {
      minLength: 1,
      maxLength: 10,
      selector: (r) => `${r.second}/${r.content}/${r.id}`,
    },
  )
  .map((rows) =>
    rows.map(({ second, content, id }): ContactRecord => ({
      sourceId: '1',
      updatedAt: `2026-12-01T10:00:0${second}Z`,
      eventId: `ev-${id}-${second}${content}`,
      checksum: `sum-${content}`,
      fields: { content },
    })),
  );

const freshest = (records: ContactRecord[]) =>
  records.reduce((best, r) => (compareFreshness(freshnessOf(r), freshnessOf(best)) === 'fresher' ? r : best));

describe('ImportContact over any delivery of one contact’s updates', () => {
  describe.each([
    ['versioned updates and deletes', versionedUpdates],
    ['updatedAt-only updates with ties', timedUpdates],
  ])('with %s', (_label, updates) => {
    it('ends at the freshest record, moves only forwards, and never appends what arrives behind the stored record', () => {
      fc.assert(
        fc.property(
          updates.chain((records) => fc.tuple(fc.constant(records), deliveries(records.length))),
          ([records, order]) => {
            const { state, appended, outcomes } = deliver(records, order);
            const best = freshest(records);
            expect(state.current).toEqual(freshnessOf(best));
            expect(state.deleted).toBe(best.deleted === true);
            if (!best.deleted) expect(state.fields).toEqual(best.fields);

            const appendedKeys = appended.map((e) =>
              freshnessOf({
                sourceId: '1',
                version: e.data.sourceVersion,
                updatedAt: e.data.sourceUpdatedAt,
                checksum: e.data.checksum,
                eventId: e.data.sourceEventId,
              }),
            );
            for (let i = 1; i < appendedKeys.length; i++) expect(compareFreshness(appendedKeys[i], appendedKeys[i - 1])).toBe('fresher');
            expect(appended.length).toBeLessThanOrEqual(records.length);

            let stored: ContactRecord | undefined;
            for (const { record, outcome, event } of outcomes) {
              if (stored && compareFreshness(freshnessOf(record), freshnessOf(stored)) === 'older') {
                expect(['skipped_stale', 'duplicate']).toContain(outcome);
                expect(event).toBeUndefined();
              }
              if (event) stored = record;
            }
          },
        ),
        { numRuns: 500 },
      );
    });
  });
});
