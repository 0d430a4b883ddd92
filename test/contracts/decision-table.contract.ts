/**
 * Every expectation case of EventStoreDB's decision table (esdb.md §1.2 and the §2.2 scenario
 * table), each appended alone and all of them appended in one turn of the event loop (where the
 * PostgreSQL store groups single-event appends into one statement), plus appends of one event id
 * under different expectations in one turn. Each append must get its own answer either way.
 */
import { randomUUID } from 'node:crypto';
import { WrongExpectedVersion } from '../../src/event-store/errors';
import type { AppendResult, EventStore, EventToAppend, ExpectedRevision, RecordedEvent } from '../../src/event-store/event-store.port';
import type { EventStoreCapabilities } from './event-store.contract';
import { testEvent, testEvents, uniqueCategory } from './test-events';

/** Written: the answer's revision, how many events the stream then holds, and for a recognised duplicate whose position it answers. */
type Outcome = { revision: number; length: number; positionOf?: number } | { conflict: number | 'no_stream' };

interface DecisionCase {
  label: string;
  /** The stream before the append: never written, e0..e5 (one no_stream append), or e0..e5 then four more. */
  history: 0 | 6 | 10;
  events: (stored: EventToAppend[]) => EventToAppend[];
  expected: ExpectedRevision;
  outcome: (capabilities: EventStoreCapabilities) => Outcome;
}

const fresh = () => testEvent();
const asDeclared = (written: Outcome, refused: Outcome) => (c: EventStoreCapabilities) =>
  c.duplicateIdOutsideItsSlot === 'appended' ? written : refused;

export const DECISION_TABLE: DecisionCase[] = [
  // esdb.md §1.2 on a stream that was never written.
  {
    label: 'no_stream on a new stream',
    history: 0,
    events: () => [fresh()],
    expected: 'no_stream',
    outcome: () => ({ revision: 0, length: 1 }),
  },
  { label: 'any on a new stream', history: 0, events: () => [fresh()], expected: 'any', outcome: () => ({ revision: 0, length: 1 }) },
  {
    label: 'stream_exists on a new stream',
    history: 0,
    events: () => [fresh()],
    expected: 'stream_exists',
    outcome: () => ({ conflict: 'no_stream' }),
  },
  { label: 'exact 0 on a new stream', history: 0, events: () => [fresh()], expected: 0, outcome: () => ({ conflict: 'no_stream' }) },
  // §1.2 on a stream at revision 5, new ids.
  { label: 'no_stream with a new id', history: 6, events: () => [fresh()], expected: 'no_stream', outcome: () => ({ conflict: 5 }) },
  { label: 'exact current with a new id', history: 6, events: () => [fresh()], expected: 5, outcome: () => ({ revision: 6, length: 7 }) },
  { label: 'any with a new id', history: 6, events: () => [fresh()], expected: 'any', outcome: () => ({ revision: 6, length: 7 }) },
  {
    label: 'stream_exists with a new id',
    history: 6,
    events: () => [fresh()],
    expected: 'stream_exists',
    outcome: () => ({ revision: 6, length: 7 }),
  },
  { label: 'exact behind with a new id', history: 6, events: () => [fresh()], expected: 3, outcome: () => ({ conflict: 5 }) },
  { label: 'exact ahead with a new id', history: 6, events: () => [fresh()], expected: 9, outcome: () => ({ conflict: 5 }) },
  {
    label: 'several new ids at exact current',
    history: 6,
    events: () => testEvents(3),
    expected: 5,
    outcome: () => ({ revision: 8, length: 9 }),
  },
  // §1.2: an append of no events runs the same checks and answers the current revision.
  { label: 'no events at exact current', history: 6, events: () => [], expected: 5, outcome: () => ({ revision: 5, length: 6 }) },
  { label: 'no events with any', history: 6, events: () => [], expected: 'any', outcome: () => ({ revision: 5, length: 6 }) },
  {
    label: 'no events with no_stream on a new stream',
    history: 0,
    events: () => [],
    expected: 'no_stream',
    outcome: () => ({ revision: -1, length: 0 }),
  },
  {
    label: 'no events with stream_exists on a new stream',
    history: 0,
    events: () => [],
    expected: 'stream_exists',
    outcome: () => ({ conflict: 'no_stream' }),
  },
  { label: 'no events at an exact revision ahead', history: 6, events: () => [], expected: 9, outcome: () => ({ conflict: 5 }) },
  // §2.2, re-appends of e0..e5.
  {
    label: 'e0..e5 with no_stream',
    history: 6,
    events: (s) => s,
    expected: 'no_stream',
    outcome: () => ({ revision: 5, length: 6, positionOf: 5 }),
  },
  {
    label: 'e0 with no_stream (a prefix)',
    history: 6,
    events: (s) => [s[0]],
    expected: 'no_stream',
    outcome: () => ({ revision: 0, length: 6, positionOf: 0 }),
  },
  { label: 'e1 at exact 0', history: 6, events: (s) => [s[1]], expected: 0, outcome: () => ({ revision: 1, length: 6, positionOf: 1 }) },
  {
    label: 'e1, e2 at exact 0',
    history: 6,
    events: (s) => [s[1], s[2]],
    expected: 0,
    outcome: () => ({ revision: 2, length: 6, positionOf: 2 }),
  },
  {
    label: 'e0 at exact 5 (the current revision)',
    history: 6,
    events: (s) => [s[0]],
    expected: 5,
    outcome: asDeclared({ revision: 6, length: 7 }, { conflict: 5 }),
  },
  { label: 'e0 at exact 4', history: 6, events: (s) => [s[0]], expected: 4, outcome: () => ({ conflict: 5 }) },
  { label: 'e0 at exact 6 (ahead)', history: 6, events: (s) => [s[0]], expected: 6, outcome: () => ({ conflict: 5 }) },
  {
    label: 'e0, e1, new with no_stream',
    history: 6,
    events: (s) => [s[0], s[1], fresh()],
    expected: 'no_stream',
    outcome: () => ({ conflict: 5 }),
  },
  { label: 'e4, e5, new at exact 3', history: 6, events: (s) => [s[4], s[5], fresh()], expected: 3, outcome: () => ({ conflict: 5 }) },
  { label: 'e1 with any', history: 6, events: (s) => [s[1]], expected: 'any', outcome: () => ({ revision: 1, length: 6, positionOf: 1 }) },
  {
    label: 'e1 with stream_exists',
    history: 6,
    events: (s) => [s[1]],
    expected: 'stream_exists',
    outcome: () => ({ revision: 1, length: 6, positionOf: 1 }),
  },
  { label: 'e0..e5 with any', history: 6, events: (s) => s, expected: 'any', outcome: () => ({ revision: 5, length: 6, positionOf: 5 }) },
  {
    label: 'new, e0 with any',
    history: 6,
    events: (s) => [fresh(), s[0]],
    expected: 'any',
    outcome: asDeclared({ revision: 7, length: 8 }, { conflict: 5 }),
  },
  { label: 'e0, new with any', history: 6, events: (s) => [s[0], fresh()], expected: 'any', outcome: () => ({ conflict: 5 }) },
  {
    label: 'e0..e5 with no_stream after four more events',
    history: 10,
    events: (s) => s.slice(0, 6),
    expected: 'no_stream',
    outcome: () => ({ revision: 5, length: 10, positionOf: 5 }),
  },
];

async function outcomeOf(attempt: Promise<AppendResult>): Promise<AppendResult | WrongExpectedVersion> {
  try {
    return await attempt;
  } catch (error) {
    if (error instanceof WrongExpectedVersion) return error;
    throw error;
  }
}

/** The stream of one case, with its history written. */
async function prepare(store: EventStore, name: string, history: DecisionCase['history']): Promise<EventToAppend[]> {
  const stored = testEvents(history);
  if (history) await store.append(name, stored.slice(0, 6), 'no_stream');
  if (history > 6) await store.append(name, stored.slice(6), 5);
  return stored;
}

function expectOutcome(
  name: string,
  got: AppendResult | WrongExpectedVersion,
  want: Outcome,
  after: RecordedEvent[],
  expected: ExpectedRevision,
): void {
  if ('conflict' in want) {
    expect(got).toBeInstanceOf(WrongExpectedVersion);
    expect(got).toMatchObject({ stream: name, expected, actual: want.conflict });
    return;
  }
  expect(got).not.toBeInstanceOf(WrongExpectedVersion);
  const result = got as AppendResult;
  expect(result.nextRevision).toBe(want.revision);
  expect(after).toHaveLength(want.length);
  if (want.revision >= 0) expect(result.position).toBe(after[want.positionOf ?? want.revision].position);
}

export function describeDecisionTable(subject: () => { store: EventStore; capabilities: EventStoreCapabilities }): void {
  describe('the expectation decision table (esdb.md §1.2, §2.2)', () => {
    let store: EventStore;
    let capabilities: EventStoreCapabilities;
    let category: string;
    const stream = () => `${category}-${randomUUID()}`;
    beforeEach(() => {
      ({ store, capabilities } = subject());
      category = uniqueCategory();
    });

    describe('when each case is appended alone', () => {
      it.each(DECISION_TABLE.map((c) => [c.label, c] as const))('%s', async (_label, decision) => {
        const name = stream();
        const stored = await prepare(store, name, decision.history);
        const got = await outcomeOf(store.append(name, decision.events(stored), decision.expected));
        const want = decision.outcome(capabilities);
        expectOutcome(name, got, want, await store.readStream(name), decision.expected);
        if ('conflict' in want) expect(await store.readStream(name)).toHaveLength(decision.history);
      });
    });

    describe('when every case is appended in the same turn of the event loop', () => {
      it('gives each append its own answer', async () => {
        const names = DECISION_TABLE.map(() => stream());
        const stored = await Promise.all(DECISION_TABLE.map((decision, i) => prepare(store, names[i], decision.history)));
        const got = await Promise.all(
          DECISION_TABLE.map((decision, i) => outcomeOf(store.append(names[i], decision.events(stored[i]), decision.expected))),
        );
        for (const [i, decision] of DECISION_TABLE.entries()) {
          expectOutcome(names[i], got[i], decision.outcome(capabilities), await store.readStream(names[i]), decision.expected);
        }
      });
    });

    describe('when one event id is appended under different expectations in the same turn', () => {
      // Either order is a valid linearization; both give the same answers, except the actual
      // revision a refusal reports (before or after the other append was written).
      const same: Array<[string, number, ExpectedRevision, ExpectedRevision, number, Array<number | 'no_stream'>]> = [
        ['a stale and the current revision', 2, 0, 1, 2, [1, 2]],
        ['an exact revision far ahead and the current one', 1, 7, 0, 1, [0, 1]],
        ['no_stream on an existing stream and the current revision', 1, 'no_stream', 0, 1, [0, 1]],
      ];
      it.each(same)(
        'writes it once, for the expectation that holds, and refuses %s',
        async (_label, history, refused, holds, revision, actual) => {
          const name = stream();
          await store.append(name, testEvents(history), 'no_stream');
          const event = testEvent();
          const [lost, won] = await Promise.all([
            outcomeOf(store.append(name, [event], refused)),
            outcomeOf(store.append(name, [event], holds)),
          ]);
          const after = await store.readStream(name);
          expect(won).toEqual({ nextRevision: revision, position: after[revision].position });
          expect(lost).toBeInstanceOf(WrongExpectedVersion);
          expect(actual).toContain((lost as WrongExpectedVersion).actual);
          expect(after.map((e) => e.id).filter((id) => id === event.id)).toHaveLength(1);
        },
      );

      it.each<[string, ExpectedRevision]>([
        ['no_stream twice', 'no_stream'],
        ['the same exact revision twice', 0],
      ])('writes it once and answers both with that write (%s)', async (_label, expected) => {
        const name = stream();
        if (expected !== 'no_stream') await store.append(name, [testEvent()], 'no_stream');
        const event = testEvent();
        const answers = await Promise.all([store.append(name, [event], expected), store.append(name, [event], expected)]);
        const after = await store.readStream(name);
        expect(answers).toEqual([answers[1], { nextRevision: after.length - 1, position: after.at(-1)!.position }]);
        expect(after.at(-1)!.id).toBe(event.id);
        expect(after.filter((e) => e.id === event.id)).toHaveLength(1);
      });

      it('answers the exact current revision and any with the one write, in either order', async () => {
        const name = stream();
        await store.append(name, testEvents(2), 'no_stream');
        const event = testEvent();
        const answers = await Promise.all([store.append(name, [event], 1), store.append(name, [event], 'any')]);
        const after = await store.readStream(name);
        expect(after).toHaveLength(3);
        expect(answers).toEqual([
          { nextRevision: 2, position: after[2].position },
          { nextRevision: 2, position: after[2].position },
        ]);
      });
    });
  });
}
