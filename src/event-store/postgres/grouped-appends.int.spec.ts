/**
 * Single-event appends made in one turn of the event loop are written by one statement in one
 * transaction (grouped-appends.ts), and each append still gets its own answer: written, conflict,
 * duplicate or refused. Statements are counted on the real pool the store uses.
 */
import { Pool } from 'pg';
import { testEvent } from '../../../test/contracts/test-events';
import { createTestDatabase } from '../../../test/harness/test-database';
import { decodeCheckpoint } from '../checkpoint';
import { InvalidAppend, WrongExpectedVersion } from '../errors';
import { PostgresEventStore } from './postgres.event-store';
import { countStatements } from '../../../test/harness/statement-counter';

let pool: Pool;
let store: PostgresEventStore;
let counter: ReturnType<typeof countStatements>;
const statements = () => counter.statements;

beforeAll(async () => {
  pool = new Pool({ connectionString: await createTestDatabase('grouped_appends'), max: 4 });
  store = new PostgresEventStore(pool);
  await store.migrate();
  // Appends check their connection out (queryKeepingConnection): count what each client runs.
  counter = countStatements(pool);
});
afterAll(() => pool.end());
beforeEach(() => {
  counter.reset();
});

const transactionOf = (position: string) => decodeCheckpoint(position as never).major;
const inserts = () => statements().filter((text) => text.includes('INSERT INTO idem_events')).length;

it('writes the appends of one turn with one statement, in one transaction', async () => {
  await store.append('order-grp-old', [testEvent()], 'no_stream');
  counter.reset();
  const results = await Promise.all([
    store.append('order-grp-1', [testEvent()], 'no_stream'),
    store.append('order-grp-2', [testEvent()], 'no_stream'),
    store.append('order-grp-old', [testEvent()], 0),
  ]);

  expect(inserts()).toBe(1);
  expect(results.map((r) => r.nextRevision)).toEqual([0, 0, 1]);
  expect(new Set(results.map((r) => transactionOf(r.position))).size).toBe(1);
  for (const [stream, result] of [
    ['order-grp-1', results[0]],
    ['order-grp-old', results[2]],
  ] as const) {
    const events = await store.readStream(stream);
    expect(events.at(-1)!.position).toBe(result.position);
  }
});

it('gives each append of a group its own answer: written, conflict, duplicate, refused id', async () => {
  const stored = testEvent();
  await store.append('order-grp-a', [stored], 'no_stream');
  const [original] = await store.readStream('order-grp-a');
  const elsewhere = testEvent();
  await store.append('order-grp-b', [elsewhere], 'no_stream');
  counter.reset();

  const outcomes = await Promise.allSettled([
    store.append('order-grp-c', [testEvent()], 'no_stream'), // written
    store.append('order-grp-a', [testEvent()], 'no_stream'), // conflict: revision 0 is taken
    store.append('order-grp-a', [stored], 'no_stream'), // a retried duplicate
    store.append('order-grp-d', [elsewhere], 'no_stream'), // an id another stream holds
    store.append('order-grp-e', [testEvent()], 'no_stream'), // two appends racing for one revision…
    store.append('order-grp-e', [testEvent()], 'no_stream'), // …in the same group
  ]);

  expect(outcomes[0]).toMatchObject({ status: 'fulfilled', value: { nextRevision: 0 } });
  expect(outcomes[1]).toMatchObject({ status: 'rejected', reason: expect.any(WrongExpectedVersion) });
  expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ actual: 0 });
  expect(outcomes[2]).toEqual({ status: 'fulfilled', value: { nextRevision: 0, position: original.position } });
  expect(outcomes[3]).toMatchObject({ status: 'rejected', reason: expect.any(InvalidAppend) });
  expect(
    outcomes
      .slice(4)
      .map((o) => o.status)
      .sort(),
  ).toEqual(['fulfilled', 'rejected']);
  expect(await store.readStream('order-grp-e')).toHaveLength(1);
  expect(await store.readStream('order-grp-d')).toEqual([]);
  expect((await store.readStream('order-grp-a')).map((e) => e.id)).toEqual([stored.id]);
});

it('fails only the append PostgreSQL refuses when a group fails as a whole', async () => {
  // A constraint of this test's own database refuses one event type, so the group's statement fails.
  await pool.query(`ALTER TABLE idem_events ADD CONSTRAINT refused_by_test CHECK (event_type <> 'RefusedByTest') NOT VALID`);
  try {
    const outcomes = await Promise.allSettled([
      store.append('order-grp-f', [testEvent()], 'no_stream'),
      store.append('order-grp-g', [testEvent('RefusedByTest')], 'no_stream'),
      store.append('order-grp-h', [testEvent()], 'no_stream'),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ code: '23514' });
    expect(statements().some((text) => text.includes('json_to_recordset'))).toBe(true);
    expect(await store.readStream('order-grp-g')).toEqual([]);
    expect(await store.readStream('order-grp-f')).toHaveLength(1);
  } finally {
    await pool.query('ALTER TABLE idem_events DROP CONSTRAINT refused_by_test');
  }
});

it('refuses an event holding NUL before writing anything, and keeps the text "\\u0000"', async () => {
  const outcomes = await Promise.allSettled([
    store.append('order-grp-nul-1', [testEvent()], 'no_stream'),
    store.append('order-grp-nul-2', [testEvent('Happened', { text: 'nul \u0000 here' })], 'no_stream'),
    store.append('order-grp-nul-3', [testEvent('Happened', { text: 'a backslash, then u0000: \\u0000' })], 'no_stream'),
  ]);
  expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(InvalidAppend);
  expect(await store.readStream('order-grp-nul-2')).toEqual([]);
  expect((await store.readStream('order-grp-nul-3'))[0].data).toEqual({ text: 'a backslash, then u0000: \\u0000' });
});

it('refuses an event holding a lone UTF-16 surrogate before writing anything, and keeps valid pairs and the text "\\ud800"', async () => {
  const outcomes = await Promise.allSettled([
    store.append('order-grp-sur-1', [testEvent('Happened', { text: 'high \ud800 alone' })], 'no_stream'),
    store.append('order-grp-sur-2', [testEvent('Happened', { [`key \udc00`]: 'a lone low half in a key' })], 'no_stream'),
    store.append('order-grp-sur-3', [testEvent('Happened', { text: 'a pair 😀, and the text \\ud800' })], 'no_stream'),
  ]);
  expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
  for (const refused of outcomes.slice(0, 2)) expect((refused as PromiseRejectedResult).reason).toBeInstanceOf(InvalidAppend);
  expect(await store.readStream('order-grp-sur-1')).toEqual([]);
  expect(await store.readStream('order-grp-sur-2')).toEqual([]);
  expect((await store.readStream('order-grp-sur-3'))[0].data).toEqual({ text: 'a pair 😀, and the text \\ud800' });
  // What the refusal protects: jsonb, which every read model copies into, cannot hold a lone half.
  await expect(pool.query(`SELECT '"\\ud800"'::jsonb`)).rejects.toMatchObject({ detail: expect.stringMatching(/surrogate/) });
});

it('commits every append on its own when grouping is off', async () => {
  const ungrouped = new PostgresEventStore(pool, { groupAppends: false });
  const results = await Promise.all([1, 2, 3].map((i) => ungrouped.append(`order-grp-solo-${i}`, [testEvent()], 'no_stream')));
  expect(inserts()).toBe(3);
  expect(new Set(results.map((r) => transactionOf(r.position))).size).toBe(3);
});

it('never deadlocks two groups that write the same streams in opposite orders', async () => {
  const other = new Pool({
    connectionString: (pool as unknown as { options: { connectionString: string } }).options.connectionString,
    max: 4,
  });
  const second = new PostgresEventStore(other);
  const deadlocks = async () =>
    Number((await pool.query(`SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()`)).rows[0].deadlocks);
  try {
    const before = await deadlocks();
    for (let round = 0; round < 20; round++) {
      const streams = Array.from({ length: 30 }, (_, i) => `order-grp-dl-${round}-${i}`);
      // The same new streams from two processes' stores at once, listed in opposite orders.
      const outcomes = await Promise.allSettled([
        ...streams.map((s) => store.append(s, [testEvent()], 'no_stream')),
        ...[...streams].reverse().map((s) => second.append(s, [testEvent()], 'no_stream')),
      ]);
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(streams.length);
      expect(
        outcomes.filter((o) => o.status === 'rejected').every((o) => (o as PromiseRejectedResult).reason instanceof WrongExpectedVersion),
      ).toBe(true);
    }
    expect(await deadlocks()).toBe(before);
  } finally {
    await other.end();
  }
});

describe('when one group holds the same event id under different expectations', () => {
  afterEach(() => expect(statements().some((text) => text.includes('json_to_recordset'))).toBe(true));

  // Issue 12, defect 1: the row written for one caller's expectation answered the other caller too.
  it('answers written only the append whose own expectation was written, and refuses the other', async () => {
    await store.append('order-grp-same-id', [testEvent(), testEvent()], 'no_stream');
    const shared = testEvent();
    const [stale, current] = await Promise.allSettled([
      store.append('order-grp-same-id', [shared], 0),
      store.append('order-grp-same-id', [shared], 1),
    ]);
    expect(current).toMatchObject({ status: 'fulfilled', value: { nextRevision: 2 } });
    expect(stale).toMatchObject({ status: 'rejected', reason: expect.any(WrongExpectedVersion) });
    expect((stale as PromiseRejectedResult).reason).toMatchObject({ expected: 0, actual: 2 });
  });

  it('refuses an exact revision far ahead of the stream', async () => {
    await store.append('order-grp-ahead', [testEvent()], 'no_stream');
    const shared = testEvent();
    const [ahead, current] = await Promise.allSettled([
      store.append('order-grp-ahead', [shared], 7),
      store.append('order-grp-ahead', [shared], 0),
    ]);
    expect(current).toMatchObject({ status: 'fulfilled', value: { nextRevision: 1 } });
    expect((ahead as PromiseRejectedResult).reason).toMatchObject({ expected: 7, actual: 1 });
  });

  it('refuses no_stream on a stream that already has events', async () => {
    await store.append('order-grp-exists', [testEvent()], 'no_stream');
    const shared = testEvent();
    const [fresh, current] = await Promise.allSettled([
      store.append('order-grp-exists', [shared], 'no_stream'),
      store.append('order-grp-exists', [shared], 0),
    ]);
    expect(current).toMatchObject({ status: 'fulfilled', value: { nextRevision: 1 } });
    expect((fresh as PromiseRejectedResult).reason).toMatchObject({ expected: 'no_stream', actual: 1 });
  });
});
