import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { AppError } from '../errors/app-error';
import { WrongExpectedVersion } from '../event-store/errors';
import { PostgresEventStore } from '../event-store/postgres/postgres.event-store';
import { createTestDatabase } from '../../test/harness/test-database';
import { commandHandler } from './command-handler';
import type { Decider } from './decider';
import { handleCommand, type CommandContext } from './handle-command';
import { checkStreamLinks, eventHash } from './hash-link';

/** A tiny ledger: a reservation per key, at most once, refusing a different amount for the same key. */
type Reserved = { type: 'Reserved'; data: { key: string; amount: number } };
type Command = { key: string; amount: number };
type State = Map<string, number>;

const reservations: Decider<Command, State, Reserved> = {
  initialState: () => new Map(),
  evolve: (state, event) => new Map(state).set(event.data.key, event.data.amount),
  decide: (command, state) => {
    const existing = state.get(command.key);
    if (existing === command.amount) return [];
    if (existing !== undefined) throw new AppError('unprocessable', 'TEST.MISMATCH', 'another amount was reserved');
    return [{ event: { type: 'Reserved', data: command }, key: `reserved/${command.key}` }];
  },
};

const ledger = commandHandler(reservations);
const reserve = (command: Command) => (state: State) => reservations.decide(command, state);
const context: CommandContext = { metadata: { correlationId: 'c', causationId: 'c', actor: { role: 'test', tokenId: 't' } } };

let pool: Pool;
let store: PostgresEventStore;

beforeAll(async () => {
  pool = new Pool({ connectionString: await createTestDatabase('handle_command'), max: 20 });
  store = new PostgresEventStore(pool);
  await store.migrate();
});
afterAll(() => pool.end());

describe('handleCommand', () => {
  it('appends the decision with no_stream on a new stream and returns the evolved state', async () => {
    const stream = `ledger-${randomUUID()}`;
    const outcome = await handleCommand(store, stream, reservations, { key: 'a', amount: 5 }, context);
    expect(outcome).toMatchObject({ revision: 0, appended: 1 });
    expect(outcome.state.get('a')).toBe(5);
    const [event] = await store.readStream(stream);
    expect(event.metadata).toMatchObject({ correlationId: 'c', actor: { role: 'test' } });
  });

  describe('when the command was already carried out', () => {
    it('answers with the recorded state and appends nothing', async () => {
      const stream = `ledger-${randomUUID()}`;
      await handleCommand(store, stream, reservations, { key: 'a', amount: 5 }, context);
      const again = await handleCommand(store, stream, reservations, { key: 'a', amount: 5 }, context);
      expect(again).toMatchObject({ revision: 0, appended: 0 });
      expect(await store.readStream(stream)).toHaveLength(1);
    });
  });

  describe('when 16 identical commands race', () => {
    it('writes the fact exactly once; the losers re-load and find it done', async () => {
      const stream = `ledger-${randomUUID()}`;
      const outcomes = await Promise.all(
        Array.from({ length: 16 }, () =>
          handleCommand(store, stream, reservations, { key: 'k', amount: 7 }, { ...context, maxAttempts: 20 }),
        ),
      );
      expect(outcomes.every((o) => o.state.get('k') === 7 && o.revision === 0)).toBe(true);
      expect(await store.readStream(stream)).toHaveLength(1);
    });
  });

  describe('when two commands decide different facts under one step at once', () => {
    // The decider's step names the key only, not the amount: the event id must still tell them apart,
    // or the store would take the second for a retry of the first and answer it as written.
    it('writes one and refuses the other as a mismatch, never answering both as written', async () => {
      for (let round = 0; round < 10; round++) {
        const stream = `ledger-${randomUUID()}`;
        const outcomes = await Promise.allSettled(
          [5, 6].map((amount) => handleCommand(store, stream, reservations, { key: 'a', amount }, context)),
        );
        const events = await store.readStream(stream);
        expect(events).toHaveLength(1);
        const written = outcomes.filter((o) => o.status === 'fulfilled');
        expect(written).toHaveLength(1);
        expect((written[0] as PromiseFulfilledResult<{ state: State }>).value.state.get('a')).toBe(events[0].data.amount);
        expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({ reason: { code: 'TEST.MISMATCH' } });
      }
    });
  });

  describe('when different commands keep conflicting', () => {
    it('re-decides each time and gives up after the bounded number of attempts', async () => {
      const stream = `ledger-${randomUUID()}`;
      const outcomes = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) =>
          handleCommand(store, stream, reservations, { key: `k${i}`, amount: i }, { ...context, maxAttempts: 1 }),
        ),
      );
      const written = (await store.readStream(stream)).length;
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(written);
      for (const failed of outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected')) {
        expect(failed.reason).toBeInstanceOf(WrongExpectedVersion);
      }
      const retried = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          handleCommand(store, stream, reservations, { key: `k${i}`, amount: i }, { ...context, maxAttempts: 50 }),
        ),
      );
      expect(retried.map((o, i) => o.state.get(`k${i}`))).toEqual(Array.from({ length: 12 }, (_, i) => i));
      expect(await store.readStream(stream)).toHaveLength(12);
    });
  });

  it('refuses a mismatched duplicate with the typed error and writes nothing', async () => {
    const stream = `ledger-${randomUUID()}`;
    await handleCommand(store, stream, reservations, { key: 'a', amount: 5 }, context);
    await expect(handleCommand(store, stream, reservations, { key: 'a', amount: 6 }, context)).rejects.toMatchObject({
      code: 'TEST.MISMATCH',
    });
    expect(await store.readStream(stream)).toHaveLength(1);
  });
});

describe('commandHandler', () => {
  afterEach(() => jest.restoreAllMocks());

  it('loads a stream as its folded state and last revision (-1 and the initial state when there is none)', async () => {
    const stream = `ledger-${randomUUID()}`;
    expect(await ledger.load(store, stream)).toEqual({ state: new Map(), revision: -1 });
    await ledger.handle(store, stream, reserve({ key: 'a', amount: 5 }), context);
    await ledger.handle(store, stream, reserve({ key: 'b', amount: 6 }), context);
    const loaded = await ledger.load(store, stream);
    expect(loaded).toMatchObject({
      state: new Map([
        ['a', 5],
        ['b', 6],
      ]),
      revision: 1,
    });
    // The event the next append links to (hash-link.ts).
    expect(loaded.last).toMatchObject({ revision: 1, data: { key: 'b', amount: 6 } });
  });

  it('answers with the events it appended, and none when the command was already carried out', async () => {
    const stream = `ledger-${randomUUID()}`;
    const first = await ledger.handle(store, stream, reserve({ key: 'a', amount: 5 }), context);
    expect(first.newEvents).toEqual([{ type: 'Reserved', data: { key: 'a', amount: 5 } }]);
    expect((await ledger.handle(store, stream, reserve({ key: 'a', amount: 5 }), context)).newEvents).toEqual([]);
  });

  it('stamps every event of one append with the same recordedAt, taken from the clock it is given', async () => {
    const stream = `ledger-${randomUUID()}`;
    const both = () => [
      { event: { type: 'Reserved' as const, data: { key: 'a', amount: 1 } }, key: 'reserved/a' },
      { event: { type: 'Reserved' as const, data: { key: 'b', amount: 2 } }, key: 'reserved/b' },
    ];
    await ledger.handle(store, stream, both, { ...context, now: () => new Date('2031-02-03T04:05:06.789Z') });
    const recordedAt = (await store.readStream(stream)).map((e) => e.metadata.recordedAt);
    expect(recordedAt).toEqual(['2031-02-03T04:05:06.789Z', '2031-02-03T04:05:06.789Z']);
  });

  describe('from a state the caller already loaded', () => {
    /** A stream holding one reservation (a = 5), as its caller loaded it. */
    async function loadedReservation() {
      const stream = `ledger-${randomUUID()}`;
      await ledger.handle(store, stream, reserve({ key: 'a', amount: 5 }), context);
      return { stream, loaded: await ledger.load(store, stream) };
    }
    const watchStore = () => ({ reads: jest.spyOn(store, 'readStream'), append: jest.spyOn(store, 'append') });

    it("appends at exactly its revision without re-reading the stream, and its answer serves as the next step's state", async () => {
      const { stream, loaded } = await loadedReservation();
      const { reads, append } = watchStore();

      const second = await ledger.handle(store, stream, reserve({ key: 'b', amount: 6 }), { ...context, from: loaded });
      const third = await ledger.handle(store, stream, reserve({ key: 'c', amount: 7 }), { ...context, from: second });

      // No read to decide. An answer carries no recorded event (a retry the store recognised holds the
      // first call's metadata, not this one's), so the third append reads the one event it links to.
      expect(reads.mock.calls).toEqual([[stream, { direction: 'backwards', fromRevision: 1, maxCount: 1 }]]);
      expect(append.mock.calls.map(([, , expected]) => expected)).toEqual([0, 1]);
      expect(third).toMatchObject({ revision: 2, appended: 1 });
      expect(third.state).toEqual(
        new Map([
          ['a', 5],
          ['b', 6],
          ['c', 7],
        ]),
      );
      expect((await store.readStream(stream)).map((e) => e.data.key)).toEqual(['a', 'b', 'c']);
    });

    it('appends to a new stream with no_stream when the state it was given has no stream', async () => {
      const stream = `ledger-${randomUUID()}`;
      const { append } = watchStore();
      const noStream = { state: new Map<string, number>(), revision: -1 };
      const outcome = await ledger.handle(store, stream, reserve({ key: 'a', amount: 5 }), { ...context, from: noStream });
      expect(append.mock.calls[0][2]).toBe('no_stream');
      expect(outcome).toMatchObject({ revision: 0, appended: 1 });
    });

    describe('when the stream moved on since', () => {
      it('throws the conflict to the caller at once: no re-read, no retry, nothing written', async () => {
        const { stream, loaded: stale } = await loadedReservation();
        await ledger.handle(store, stream, reserve({ key: 'b', amount: 6 }), context);
        const { reads, append } = watchStore();

        const handling = ledger.handle(store, stream, reserve({ key: 'c', amount: 7 }), { ...context, maxAttempts: 5, from: stale });

        await expect(handling).rejects.toBeInstanceOf(WrongExpectedVersion);
        await expect(handling).rejects.toMatchObject({ expected: 0, actual: 1 });
        expect(reads).not.toHaveBeenCalled();
        expect(append).toHaveBeenCalledTimes(1);
        expect((await store.readStream(stream)).map((e) => e.data.key)).toEqual(['a', 'b']);
      });

      it('throws the conflict when another run appended other facts at the same revision', async () => {
        const stream = `ledger-${randomUUID()}`;
        const empty = { state: new Map<string, number>(), revision: -1 };
        await ledger.handle(store, stream, reserve({ key: 'a', amount: 5 }), { ...context, from: empty });
        const other = ledger.handle(store, stream, reserve({ key: 'a', amount: 6 }), { ...context, from: empty });
        await expect(other).rejects.toBeInstanceOf(WrongExpectedVersion);
        expect(await store.readStream(stream)).toHaveLength(1);
      });
    });

    it('decides nothing to do without touching the store, answering with the state it was given', async () => {
      const { stream, loaded } = await loadedReservation();
      const { reads, append } = watchStore();
      const outcome = await ledger.handle(store, stream, reserve({ key: 'a', amount: 5 }), { ...context, from: loaded });
      expect(outcome).toEqual({ state: loaded.state, revision: 0, appended: 0, newEvents: [] });
      expect(reads).not.toHaveBeenCalled();
      expect(append).not.toHaveBeenCalled();
    });

    it('recognises a retry of the same facts at the same revision as the append it repeats', async () => {
      const stream = `ledger-${randomUUID()}`;
      const empty = { state: new Map<string, number>(), revision: -1 };
      const first = await ledger.handle(store, stream, reserve({ key: 'a', amount: 5 }), { ...context, from: empty });
      const retried = await ledger.handle(store, stream, reserve({ key: 'a', amount: 5 }), { ...context, from: empty });
      expect(retried).toMatchObject({ revision: first.revision, appended: 1, position: first.position });
      expect(await store.readStream(stream)).toHaveLength(1);
    });
  });
});

describe('hash links (hash-link.ts)', () => {
  it('links every event the command path appends to the one before it, and a rewritten row breaks the chain', async () => {
    const stream = `ledger-${randomUUID()}`;
    for (const key of ['a', 'b', 'c']) await handleCommand(store, stream, reservations, { key, amount: 1 }, context);
    const events = await store.readStream(stream);
    expect(events.map((e) => e.metadata.previousEventHash)).toEqual([null, eventHash(events[0]), eventHash(events[1])]);
    expect(checkStreamLinks(stream, events)).toEqual({ checked: 3, unlinked: 0 });

    await pool.query(`UPDATE idem_events SET data = '{"key":"b","amount":1000}' WHERE stream_name = $1 AND revision = 1`, [stream]);
    expect(checkStreamLinks(stream, await store.readStream(stream)).firstBreak).toMatchObject({ revision: 2, kind: 'link_mismatch' });
  });

  it('links to the event as appended, without a read, when the caller vouches for fresh ids', async () => {
    const stream = `ledger-${randomUUID()}`;
    const first = await ledger.handle(store, stream, reserve({ key: 'a', amount: 1 }), { ...context, freshIds: true });
    const reads = jest.spyOn(store, 'readStream');
    try {
      await ledger.handle(store, stream, reserve({ key: 'b', amount: 2 }), { ...context, from: first });
      expect(reads).not.toHaveBeenCalled();
    } finally {
      reads.mockRestore();
    }
    expect(checkStreamLinks(stream, await store.readStream(stream))).toEqual({ checked: 2, unlinked: 0 });
  });

  it('links an append made on a state passed as `from` without its last event by reading that event', async () => {
    const stream = `ledger-${randomUUID()}`;
    const first = await ledger.handle(store, stream, reserve({ key: 'a', amount: 1 }), context);
    // An outcome carries no recorded event: the next append reads the one it links to.
    await ledger.handle(store, stream, reserve({ key: 'b', amount: 2 }), { ...context, from: first });
    expect(checkStreamLinks(stream, await store.readStream(stream))).toEqual({ checked: 2, unlinked: 0 });
  });
});
