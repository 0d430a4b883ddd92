/**
 * A pushed batch costs a few statements, not one round trip per record: the records' commands start
 * in one turn, so the PostgreSQL store reads their streams with grouped `ANY(…)` reads and writes
 * their appends with grouped INSERTs (per-turn-batcher.ts). Statements are counted on the store's pool.
 */
import { Pool } from 'pg';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import { countStatements } from '../../../test/harness/statement-counter';
import { createTestDatabase } from '../../../test/harness/test-database';
import { importRecords, throwIfNotStored } from './import-records';

let pool: Pool;
let store: PostgresEventStore;
let counter: ReturnType<typeof countStatements>;

beforeAll(async () => {
  pool = new Pool({ connectionString: await createTestDatabase('contacts_grouped'), max: 8 });
  store = new PostgresEventStore(pool);
  await store.migrate();
  counter = countStatements(pool);
});
afterAll(() => pool.end());

const metadata = { correlationId: 'c', causationId: 'c', actor: { role: 'sync', tokenId: 'test' } };
const records = (n: number, version: number) =>
  Array.from({ length: n }, (_, seq) => ({ seq, record: { sourceId: `g-${seq}`, version, fields: { version } } }));
const reads = () => counter.statements.filter((s) => /^SELECT .* FROM idem_events WHERE stream_name = ANY\(/s.test(s)).length;
const singleReads = () => counter.statements.filter((s) => /^SELECT .* FROM idem_events WHERE stream_name = \$1/s.test(s)).length;
const inserts = () => counter.statements.filter((s) => s.includes('INSERT INTO idem_events') || s.includes('idem_append')).length;

describe('importRecords', () => {
  describe('when a batch of 640 contacts is imported, then updated', () => {
    it.each([
      ['imported', 1],
      ['updated', 2],
    ])('answers every record %s with about one read and one insert statement per 64 records', async (outcome, version) => {
      counter.reset();
      const results = await importRecords(store, 'crm', `run-${version}`, records(640, version), metadata);
      expect(new Set(results.map((r) => r.outcome))).toEqual(new Set([outcome]));
      expect(results.every((r) => r.revision === version - 1)).toBe(true);
      expect(reads()).toBeGreaterThan(0);
      expect(reads()).toBeLessThanOrEqual(12);
      expect(singleReads()).toBe(0);
      expect(inserts()).toBeGreaterThan(0);
      expect(inserts()).toBeLessThanOrEqual(12);
    });
  });
});

describe('importRecords, when a batch holds many versions of one contact', () => {
  it("reads the contact's stream whole once, judging each next record on the state the one before left", async () => {
    // Read whole per record, a batch of 1,000 versions of one contact read 500,000 events (about 30 s).
    const versions = Array.from({ length: 200 }, (_, seq) => ({ seq, record: { sourceId: 'many', version: seq + 1, fields: { seq } } }));
    const spy = jest.spyOn(store, 'readStream');
    try {
      const results = await importRecords(store, 'crm', 'run-many', versions, metadata);
      expect(results.map((r) => [r.outcome, r.revision])).toEqual(versions.map(({ seq }) => [seq === 0 ? 'imported' : 'updated', seq]));
      const wholeReads = spy.mock.calls.filter(([stream, options]) => stream === 'contact-crm.many' && options?.maxCount === undefined);
      expect(wholeReads).toHaveLength(1);
    } finally {
      spy.mockRestore();
    }
    const stored = await store.readStream('contact-crm.many');
    expect(stored.map((e) => (e.data as { sourceVersion: number }).sourceVersion)).toEqual(versions.map(({ seq }) => seq + 1));
  });

  it('judges the next record on a fresh read when another writer appended to the contact meanwhile', async () => {
    const first = { seq: 0, record: { sourceId: 'raced', version: 1, fields: { a: 1 } } };
    const second = { seq: 1, record: { sourceId: 'raced', version: 2, fields: { a: 2 } } };
    const append = store.append.bind(store);
    let raced = false;
    const spy = jest.spyOn(store, 'append').mockImplementation(async (stream, events, expected) => {
      const result = await append(stream, events, expected);
      if (stream === 'contact-crm.raced' && !raced) {
        // Another import writes version 3 right after this batch's first record.
        raced = true;
        await importRecords(store, 'crm', 'run-other', [{ seq: 0, record: { sourceId: 'raced', version: 3, fields: { a: 3 } } }], metadata);
      }
      return result;
    });
    try {
      const results = await importRecords(store, 'crm', 'run-raced', [first, second], metadata);
      expect(results.map((r) => [r.outcome, r.revision])).toEqual([
        ['imported', 0],
        ['skipped_stale', 1],
      ]);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('importRecords, when the store cannot take one record', () => {
  const batch = [
    { seq: 0, record: { sourceId: 'n-0', fields: { a: 0 } } },
    { seq: 1, record: { sourceId: 'n-1', fields: { blob: 'x'.repeat(3000) } } },
    { seq: 2, record: { sourceId: 'n-2', fields: { a: 2 } } },
  ];

  it('answers a record over the configured append limit rejected and imports the others', async () => {
    const small = new PostgresEventStore(pool, { maxAppendBytes: 2048 });
    const results = await importRecords(small, 'small', 'run-small', batch, metadata);
    expect(results.map((r) => [r.outcome, r.revision, r.storeFailure])).toEqual([
      ['imported', 0, undefined],
      ['rejected', null, undefined],
      ['imported', 0, undefined],
    ]);
    expect(results[1].reason).toMatch(/too large to store.*the limit is 2048/);
  });

  it('waits for every record and answers a failed append rejected with "send it again", marked for a run to retry', async () => {
    const lost = new Error('connection terminated');
    const failing = Object.create(store, {
      append: {
        value: (stream: string, ...rest: unknown[]) =>
          stream.endsWith('.n-1') ? Promise.reject(lost) : store.append(stream, ...(rest as [never, never])),
      },
    }) as PostgresEventStore;
    const results = await importRecords(failing, 'failing', 'run-failing', batch, metadata);
    expect(results.map((r) => r.outcome)).toEqual(['imported', 'rejected', 'imported']);
    expect(results[1]).toMatchObject({ reason: expect.stringContaining('send it again'), storeFailure: lost });
    expect(() => throwIfNotStored(results)).toThrow(lost);
  });
});
