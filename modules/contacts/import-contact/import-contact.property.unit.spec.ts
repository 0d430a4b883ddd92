/**
 * Invariant 5 (DESIGN.md §9) as a property: whatever order one contact's updates arrive in, however
 * often each comes, the contact ends at the freshest record, its history only ever moves forwards
 * (one revision per distinct version at most), and whatever arrives behind the stored record is
 * `skipped_stale` or `duplicate`, never appended — also when the source reuses an event id for another record.
 */
import fc from 'fast-check';
import type { ContactEvent } from '../contact.events';
import { initialContactState, type ContactState } from '../contact.state';
import { checksumOf, type ContactRecord } from './contact-record';
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

/**
 * The same, but a source that reuses its event ids: records of other versions and content under one id.
 * Only the same record again is a duplicate; the others are ordered by the rule like any record.
 */
const reusedIdUpdates = fc
  .tuple(versionedUpdates, fc.integer({ min: 1, max: 3 }))
  .map(([records, ids]) => records.map((record, i): ContactRecord => ({ ...record, eventId: `e${i % ids}` })));

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

/** One record's rank under the rule, computed apart from freshness.ts: the generator knows each instant in ns. */
interface Ranked {
  record: ContactRecord;
  /** [has version, version, has updatedAt, instant in ns, checksum, event id]. */
  key: [number, number, number, bigint, string, string];
}

const BASE_MS = Date.UTC(2026, 11, 1, 10, 0, 0);
/** Instants a few ns, µs and ms apart, some in the same millisecond, and the next second. */
const NANOS = [0n, 100_000_000n, 100_001_000n, 100_000_999n, 100_900_000n, 100_900_001n, 999_999_999n, 1_000_000_000n];

/** `nanos` past BASE_MS spelled with `offset` minutes east of UTC and a fraction padded to `width` digits (or the fewest it needs). */
function spell(nanos: bigint, offset: number, width: number): string {
  const local = new Date(BASE_MS + Number(nanos / 1_000_000_000n) * 1000 + offset * 60_000).toISOString().slice(0, 19);
  const digits = String(nanos % 1_000_000_000n)
    .padStart(9, '0')
    .replace(/0+$/, '');
  const fraction = digits.padEnd(width, '0');
  const [hours, minutes] = [Math.floor(Math.abs(offset) / 60), Math.abs(offset) % 60].map((n) => String(n).padStart(2, '0'));
  const zone = offset === 0 ? 'Z' : `${offset > 0 ? '+' : '-'}${hours}:${minutes}`;
  return `${local}${fraction ? `.${fraction}` : ''}${zone}`;
}

/**
 * Versioned (with or without updatedAt), updatedAt-only and bare records mixed, instants spelled in
 * several offsets and fraction lengths. One version names one record (two would be a conflict, kept
 * by arrival on purpose), every record has its own event id, and at least one record carries an order.
 */
const mixedUpdates = fc
  .array(
    fc.record({
      kind: fc.constantFrom('versioned', 'versioned-timed', 'timed', 'bare'),
      gap: fc.integer({ min: 1, max: 3 }),
      nanos: fc.constantFrom(...NANOS),
      offset: fc.constantFrom(0, 60, -330, 840),
      width: fc.integer({ min: 0, max: 9 }),
      content: fc.constantFrom('a', 'b'),
      deleted: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
    }),
    { minLength: 1, maxLength: 10 },
  )
  .filter((rows) => rows.some((r) => r.kind !== 'bare'))
  .map((rows) => {
    let version = 0; // deliveries are shuffled, so versions may grow with the index
    return rows.map(({ kind, gap, nanos, offset, width, content, deleted }, i): Ranked => {
      const versioned = kind.startsWith('versioned');
      if (versioned) version += gap;
      const timed = kind.endsWith('timed');
      const record: ContactRecord = {
        sourceId: '1',
        ...(versioned ? { version } : {}),
        ...(timed ? { updatedAt: spell(nanos, offset, width) } : {}),
        eventId: `ev-${i}`,
        ...(deleted ? { deleted: true } : { checksum: `sum-${content}`, fields: { content } }),
      };
      const key: Ranked['key'] = [
        versioned ? 1 : 0,
        versioned ? version : 0,
        timed ? 1 : 0,
        timed ? nanos : 0n,
        checksumOf(record),
        `ev-${i}`,
      ];
      return { record, key };
    });
  });

const byKey = (a: Ranked['key'], b: Ranked['key']) => {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] > b[i] ? 1 : -1;
  return 0;
};
const greatest = (ranked: Ranked[]) => ranked.reduce((best, r) => (byKey(r.key, best.key) > 0 ? r : best)).record;

const freshest = (records: ContactRecord[]) =>
  records.reduce((best, r) => (compareFreshness(freshnessOf(r), freshnessOf(best)) === 'fresher' ? r : best));

/** What the contact ends at, leaving out how many events it took. */
const finalState = ({ current, deleted, fields }: ContactState) => ({ current, deleted, fields });

/** Delivers `records` in `order`, then checks invariant 5 against `best`. */
function checkDelivery(records: ContactRecord[], order: number[], best: ContactRecord) {
  const { state, appended, outcomes } = deliver(records, order);
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
  return finalState(state);
}

describe('ImportContact over any delivery of one contact’s updates', () => {
  describe.each([
    ['versioned updates and deletes', versionedUpdates],
    ['updatedAt-only updates with ties', timedUpdates],
    ['versioned updates and deletes that share source event ids', reusedIdUpdates],
  ])('with %s', (_label, updates) => {
    it('ends at the freshest record, moves only forwards, and never appends what arrives behind the stored record', () => {
      fc.assert(
        fc.property(
          updates.chain((records) => fc.tuple(fc.constant(records), deliveries(records.length))),
          ([records, order]) => {
            checkDelivery(records, order, freshest(records));
          },
        ),
        { numRuns: 500 },
      );
    });
  });

  describe('with versioned, updatedAt-only, sub-millisecond and bare records mixed', () => {
    it('ends in one state for every ordering and duplication: the greatest by version, updatedAt, checksum, event id', () => {
      fc.assert(
        fc.property(
          mixedUpdates.chain((ranked) => fc.tuple(fc.constant(ranked), deliveries(ranked.length), deliveries(ranked.length))),
          ([ranked, order, otherOrder]) => {
            const records = ranked.map((r) => r.record);
            const best = greatest(ranked);
            expect(checkDelivery(records, order, best)).toEqual(checkDelivery(records, otherOrder, best));
          },
        ),
        { numRuns: 1000 },
      );
    });
  });
});
