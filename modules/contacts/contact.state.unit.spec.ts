/**
 * evolveContact grows its records by source event id and by import step by one entry per event
 * (keyed-history.ts) where it copied both Maps whole on every event, quadratic in a contact's history.
 * Proofs: on random histories, with states grown from twice (branches), every state answers every
 * lookup as the copying fold did; and the fold of a long history copies nothing.
 */
import fc from 'fast-check';
import type { ContactEvent, Freshness } from './contact.events';
import { changeOutcome, evolveContact, initialContactState, stepKey, type AppliedStep, type ContactState } from './contact.state';

/** The fold as it was: both Maps copied whole on every event (the reference). */
interface CopiedState {
  state: Omit<ContactState, 'appliedByEventId' | 'appliedSteps'>;
  appliedByEventId: ReadonlyMap<string, readonly Freshness[]>;
  appliedSteps: ReadonlyMap<string, AppliedStep>;
}

const initialCopied = (): CopiedState => {
  const { appliedByEventId: _e, appliedSteps: _s, ...state } = initialContactState();
  return { state, appliedByEventId: new Map(), appliedSteps: new Map() };
};

function evolveByCopies(copied: CopiedState, event: ContactEvent): CopiedState {
  const { sourceVersion, sourceUpdatedAt, checksum, sourceEventId, runId, seq } = event.data;
  const current: Freshness = { checksum };
  if (sourceVersion !== undefined) current.sourceVersion = sourceVersion;
  if (sourceUpdatedAt !== undefined) current.sourceUpdatedAt = sourceUpdatedAt;
  if (sourceEventId !== undefined) current.sourceEventId = sourceEventId;
  const { appliedByEventId: byId, appliedSteps: steps } = copied;
  const deleted = event.type === 'ContactDeleted';
  // changeOutcome reads exists, deleted and current only.
  const outcome = changeOutcome({ ...copied.state, appliedByEventId: undefined!, appliedSteps: undefined! } as ContactState, event);
  return {
    state: { exists: true, deleted, fields: deleted ? {} : event.data.fields, current, revision: copied.state.revision + 1 },
    appliedByEventId:
      sourceEventId === undefined ? byId : new Map([...byId, [sourceEventId, [...(byId.get(sourceEventId) ?? []), current]]]),
    appliedSteps:
      runId === undefined || seq === undefined
        ? steps
        : new Map<string, AppliedStep>([...steps, [stepKey(runId, seq), { outcome, freshness: current, deleted }]]),
  };
}

const EVENT_IDS = ['e1', 'e2', 'e3', 'e4'];
const STEPS = [...['r1', 'r2'].flatMap((runId) => [0, 1, 2].map((seq) => ({ runId, seq })))];

const anEvent: fc.Arbitrary<ContactEvent> = fc
  .record({
    deleted: fc.boolean(),
    version: fc.option(fc.nat({ max: 9 }), { nil: undefined }),
    checksum: fc.constantFrom('a', 'b', 'c'),
    eventId: fc.option(fc.constantFrom(...EVENT_IDS), { nil: undefined }),
    step: fc.option(fc.constantFrom(...STEPS), { nil: undefined }),
  })
  .map(({ deleted, version, checksum, eventId, step }) => {
    const data = {
      source: 'crm',
      sourceId: 'c1',
      checksum,
      ...(version !== undefined ? { sourceVersion: version } : {}),
      ...(eventId !== undefined ? { sourceEventId: eventId } : {}),
      ...(step ?? {}),
    };
    return deleted ? { type: 'ContactDeleted', data } : { type: 'ContactImported', data: { ...data, fields: { checksum } } };
  });

/** What each fold answers: the state's plain fields, and every lookup the decision makes (unseen keys included). */
function answers(state: ContactState) {
  const { appliedByEventId, appliedSteps, ...plain } = state;
  return {
    plain,
    byId: [...EVENT_IDS, 'unseen'].map((id) => appliedByEventId.all(id)),
    steps: [...STEPS, { runId: 'unseen', seq: 0 }].map(({ runId, seq }) => appliedSteps.last(stepKey(runId, seq))),
  };
}

function copiedAnswers({ state, appliedByEventId, appliedSteps }: CopiedState) {
  return {
    plain: state,
    byId: [...EVENT_IDS, 'unseen'].map((id) => (appliedByEventId.get(id) as Freshness[] | undefined) ?? undefined),
    steps: [...STEPS, { runId: 'unseen', seq: 0 }].map(({ runId, seq }) => appliedSteps.get(stepKey(runId, seq))),
  };
}

describe('evolveContact', () => {
  it('answers every lookup as the fold that copied its Maps did, on any history', () => {
    fc.assert(
      fc.property(fc.array(anEvent, { maxLength: 40 }), (events) => {
        let state = initialContactState();
        let copied = initialCopied();
        for (const event of events) {
          state = evolveContact(state, event);
          copied = evolveByCopies(copied, event);
          expect(answers(state)).toEqual(copiedAnswers(copied));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps every state as it was when another is grown from it twice (branches), and each branch as the copying fold says', () => {
    fc.assert(
      fc.property(
        fc.array(anEvent, { maxLength: 20 }),
        fc.array(anEvent, { minLength: 1, maxLength: 10 }),
        fc.array(anEvent, { minLength: 1, maxLength: 10 }),
        (trunk, left, right) => {
          const fold = (from: ContactState, events: ContactEvent[]) => events.reduce(evolveContact, from);
          const foldCopied = (from: CopiedState, events: ContactEvent[]) => events.reduce(evolveByCopies, from);
          const fork = fold(initialContactState(), trunk);
          const forkCopied = foldCopied(initialCopied(), trunk);
          const before = answers(fork);
          const leftState = fold(fork, left);
          const rightState = fold(fork, right);
          expect(answers(fork)).toEqual(before);
          expect(answers(fork)).toEqual(copiedAnswers(forkCopied));
          expect(answers(leftState)).toEqual(copiedAnswers(foldCopied(forkCopied, left)));
          expect(answers(rightState)).toEqual(copiedAnswers(foldCopied(forkCopied, right)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('folds a long history without copying: every state of it shares one list of entries per lookup', () => {
    const n = 20_000;
    const states: ContactState[] = [];
    let state = initialContactState();
    for (let i = 0; i < n; i++) {
      state = evolveContact(state, {
        type: 'ContactImported',
        data: {
          source: 'crm',
          sourceId: 'c1',
          checksum: `k${i}`,
          sourceVersion: i,
          sourceEventId: `e${i % 50}`,
          runId: `r${i}`,
          seq: 0,
          fields: {},
        },
      });
      states.push(state);
    }
    /** The entries a history is a prefix of (keyed-history.ts keeps them private: a copy would be a new list). */
    const listsOf = (pick: (s: ContactState) => object) =>
      new Set(states.map((s) => (pick(s) as unknown as { entries: { list: unknown[] } }).entries.list));
    const stepLists = listsOf((s) => s.appliedSteps);
    const idLists = listsOf((s) => s.appliedByEventId);
    expect([stepLists.size, idLists.size]).toEqual([1, 1]);
    expect([[...stepLists][0].length, [...idLists][0].length]).toEqual([n, n]);
    expect(state.appliedSteps.last(stepKey('r19999', 0))).toMatchObject({ outcome: 'updated', freshness: { sourceVersion: 19_999 } });
    expect(state.appliedByEventId.all('e7')).toHaveLength(n / 50);
  });
});
