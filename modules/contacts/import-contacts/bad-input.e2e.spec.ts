import { auth, startTestApp, type TestApp } from '../../../test/harness/test-app';
import { expectProblem } from '../../../test/harness/expect-problem';
import { waitUntil } from '../../../test/harness/wait-until';

let harness: TestApp;
beforeAll(async () => {
  harness = await startTestApp('contacts_bad_input');
});
afterAll(() => harness.close());

const ok = { sourceId: 'c-1', version: 1, fields: { name: 'Ada' } };
const batch = (...records: unknown[]) => ({ source: 'crm', records });
/** A well-formed push of `records` by the sync role. */
const postBatch = (...records: unknown[]) =>
  harness.app.inject({ method: 'POST', url: '/v1/contacts/import', headers: auth('sync'), payload: batch(...records) });
/** Every contact and import event written, settled or not. */
const eventCount = async () =>
  Number(
    (
      await harness.runtime.pool.query(
        `SELECT count(*) AS n FROM idem_events WHERE stream_name LIKE 'contact-%' OR stream_name LIKE 'import-%'`,
      )
    ).rows[0].n,
  );

type Case = [label: string, request: { payload?: unknown; body?: string; headers?: Record<string, string> }, status: number, code: string];

const cases: Case[] = [
  [
    'a batch over 1,000 records',
    { payload: batch(...Array.from({ length: 1001 }, (_, i) => ({ ...ok, sourceId: `c-${i}` }))) },
    400,
    'REQUEST.INVALID',
  ],
  ['an empty batch', { payload: batch() }, 400, 'REQUEST.INVALID'],
  ['records that are not an array', { payload: { source: 'crm', records: { a: ok } } }, 400, 'REQUEST.INVALID'],
  ['a missing sourceId', { payload: batch({ version: 1, fields: {} }) }, 400, 'REQUEST.INVALID'],
  ['an empty sourceId', { payload: batch({ ...ok, sourceId: '' }) }, 400, 'REQUEST.INVALID'],
  ['a sourceId with illegal characters', { payload: batch({ ...ok, sourceId: 'a b/c' }) }, 400, 'REQUEST.INVALID'],
  ['fields that are not an object', { payload: batch({ ...ok, fields: 'Ada' }) }, 400, 'REQUEST.INVALID'],
  ['fields as an array', { payload: batch({ ...ok, fields: ['Ada'] }) }, 400, 'REQUEST.INVALID'],
  ['a negative version', { payload: batch({ ...ok, version: -1 }) }, 400, 'REQUEST.INVALID'],
  ['a fractional version', { payload: batch({ ...ok, version: 1.5 }) }, 400, 'REQUEST.INVALID'],
  ['a version as a string', { payload: batch({ ...ok, version: '2' }) }, 400, 'REQUEST.INVALID'],
  ['an updatedAt that is not ISO-8601', { payload: batch({ ...ok, updatedAt: '01/12/2026 10:00' }) }, 400, 'REQUEST.INVALID'],
  ['an updatedAt that is no real date', { payload: batch({ ...ok, updatedAt: '2026-13-45T10:00:00Z' }) }, 400, 'REQUEST.INVALID'],
  // The read models' timestamptz has no year 0: stored, it stopped the contacts and import_events projections for good.
  ['an updatedAt in year 0000', { payload: batch({ ...ok, updatedAt: '0000-06-01T00:00:00Z' }) }, 400, 'REQUEST.INVALID'],
  // JSON.parse reads it as Infinity, which an event's JSON holds as null: the contact would keep null.
  [
    'a field number past the double range',
    { body: '{"source":"crm","records":[{"sourceId":"c-1","fields":{"n":1e400}}]}', headers: { 'content-type': 'application/json' } },
    400,
    'REQUEST.INVALID',
  ],
  ['deleted that is not a boolean', { payload: batch({ ...ok, deleted: 'yes' }) }, 400, 'REQUEST.INVALID'],
  ['an unknown record field', { payload: batch({ ...ok, colour: 'red' }) }, 400, 'REQUEST.INVALID'],
  ['an unknown envelope field', { payload: { ...batch(ok), dryRun: true } }, 400, 'REQUEST.INVALID'],
  ['a missing source', { payload: { records: [ok] } }, 400, 'REQUEST.INVALID'],
  ['an unknown source', { payload: { source: 'nowhere', records: [ok] } }, 422, 'CONTACTS.UNKNOWN_SOURCE'],
  ['a JSON array body', { payload: [ok] }, 400, 'REQUEST.INVALID'],
  ['malformed JSON', { body: '{"source": "crm", "records": [', headers: { 'content-type': 'application/json' } }, 400, 'REQUEST.MALFORMED'],
  ['a body over 5 MiB', { payload: batch({ ...ok, fields: { blob: 'x'.repeat(5 * 1024 * 1024) } }) }, 413, 'REQUEST.TOO_LARGE'],
  ['a bad Idempotency-Key', { payload: batch(ok), headers: { 'idempotency-key': 'k'.repeat(300) } }, 400, 'IDEMPOTENCY_KEY.INVALID'],
  ['no token', { payload: batch(ok), headers: { authorization: '' } }, 401, 'AUTH.TOKEN_REQUIRED'],
  ['an unknown token', { payload: batch(ok), headers: { authorization: 'Bearer nope' } }, 401, 'AUTH.TOKEN_REQUIRED'],
  ['a token of another role', { payload: batch(ok), headers: auth('support') }, 403, 'AUTH.ROLE_FORBIDDEN'],
];

describe('POST /v1/contacts/import with bad input', () => {
  it.each(cases)('refuses %s with a problem+json 4xx and writes nothing', async (_label, request, status, code) => {
    const before = await eventCount();
    const response = await harness.app.inject({
      method: 'POST',
      url: '/v1/contacts/import',
      headers: { ...auth('sync'), ...request.headers },
      ...(request.body !== undefined ? { body: request.body } : { payload: request.payload as object }),
    });
    expectProblem(response, status, code);
    expect(await eventCount()).toBe(before);
  });

  it('takes a batch of 1,000 records of almost 5 MiB (the route has its own body limit)', async () => {
    const records = Array.from({ length: 1000 }, (_, i) => ({ sourceId: `big-${i}`, version: 1, fields: { note: 'x'.repeat(4900) } }));
    const response = await postBatch(...records);
    expect(response.statusCode).toBe(200);
    expect(response.json().counts).toEqual({ imported: 1000 });
  });

  describe('when some records of a valid batch are invalid', () => {
    it('answers those rejected, with why, and imports the rest', async () => {
      const response = await postBatch(
        { sourceId: 'mixed-1', fields: { a: 1 } },
        { sourceId: '', fields: {} },
        { sourceId: 'mixed-2', version: -3, fields: {} },
        { sourceId: 'mixed-3', updatedAt: '2026-12-01T10:00:00Z', fields: {} },
      );
      expect(response.statusCode).toBe(200);
      expect(response.json().results).toEqual([
        { sourceId: 'mixed-1', outcome: 'imported', revision: 0 },
        { sourceId: null, outcome: 'rejected', revision: null, reason: expect.stringContaining('sourceId') },
        { sourceId: 'mixed-2', outcome: 'rejected', revision: null, reason: 'version must be a non-negative integer' },
        { sourceId: 'mixed-3', outcome: 'imported', revision: 0 },
      ]);
      const written = await harness.runtime.pool.query(
        `SELECT stream_name FROM idem_events WHERE stream_name LIKE 'contact-crm.mixed-%' ORDER BY 1`,
      );
      expect(written.rows.map((r) => r.stream_name)).toEqual(['contact-crm.mixed-1', 'contact-crm.mixed-3']);
    });
  });

  describe('when versions are spelled as JSON numbers with a fraction or an exponent', () => {
    it('takes 1.0 and 2e0 as the integers 1 and 2, as CSV and NDJSON files do, and rejects 1.5 and 1e400 alone', async () => {
      const spellings = ['1.0', '2e0', '-0', '1.5', '1e400'];
      const records = spellings.map((v, i) => `{"sourceId":"spelled-${i}","version":${v},"fields":{}}`);
      const response = await harness.app.inject({
        method: 'POST',
        url: '/v1/contacts/import',
        headers: { ...auth('sync'), 'content-type': 'application/json' },
        body: `{"source":"crm","records":[${records.join(',')}]}`,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().results.map((r: { outcome: string }) => r.outcome)).toEqual([
        'imported',
        'imported',
        'imported',
        'rejected',
        'rejected',
      ]);
      const { rows } = await harness.runtime.pool.query(
        `SELECT stream_name, data->>'sourceVersion' AS version FROM idem_events WHERE stream_name LIKE 'contact-crm.spelled-%' ORDER BY 1`,
      );
      expect(rows).toEqual([
        { stream_name: 'contact-crm.spelled-0', version: '1' },
        { stream_name: 'contact-crm.spelled-1', version: '2' },
        { stream_name: 'contact-crm.spelled-2', version: '0' },
      ]);
    });
  });

  describe('when a record sends a sourceId string that is no valid key', () => {
    it('answers it rejected under the key it sent, also on a replay, and audits it without a contact key', async () => {
      const sent = ['a/b', 'a%2Fb', 'k'.repeat(65)];
      const push = () =>
        harness.app.inject({
          method: 'POST',
          url: '/v1/contacts/import',
          headers: { ...auth('sync'), 'idempotency-key': 'sent-keys-1' },
          payload: batch(...sent.map((sourceId) => ({ sourceId, fields: {} })), { sourceId: 'sent-ok', fields: {} }),
        });
      const first = await push();
      expect(first.statusCode).toBe(200);
      const rejected = (sourceId: string) => ({
        sourceId,
        outcome: 'rejected',
        revision: null,
        reason: expect.stringContaining('sourceId'),
      });
      expect(first.json().results).toEqual([...sent.map(rejected), { sourceId: 'sent-ok', outcome: 'imported', revision: 0 }]);
      const replay = await push();
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.json().results).toEqual(first.json().results);
      const audit = await harness.runtime.eventStore.readStream(`import-${first.json().runId}`);
      const keys = audit.filter((e) => e.type === 'ImportRecordProcessed').map((e) => [e.data.sourceId, e.data.sentSourceId]);
      expect(keys).toEqual([...sent.map((s) => ['', s]), ['sent-ok', undefined]]);
    });
  });

  describe('when a rejected record quotes a NUL or a lone surrogate (in its sourceId or a field name)', () => {
    it('answers it rejected with those characters escaped, imports the rest and records the batch, also on a replay', async () => {
      // Quoted as sent, they made the store refuse the run's audit: a 400 EVENT_STORE.INVALID_EVENT_DATA
      // after the good record's contact was written, and a key whose claim was never completed.
      const push = () =>
        harness.app.inject({
          method: 'POST',
          url: '/v1/contacts/import',
          headers: { ...auth('sync'), 'idempotency-key': 'unstorable-keys-1' },
          payload: batch(
            { sourceId: 'unstorable-ok', fields: {} },
            { sourceId: 'a\u0000b', fields: {} },
            { sourceId: 'half\udc00', fields: {} },
            { sourceId: 'unstorable-field', fields: {}, ['x\u0000']: 1 },
          ),
        });
      const first = await push();
      expect(first.statusCode).toBe(200);
      expect(first.json().results).toEqual([
        { sourceId: 'unstorable-ok', outcome: 'imported', revision: 0 },
        { sourceId: 'a\\u0000b', outcome: 'rejected', revision: null, reason: expect.stringContaining('sourceId must be') },
        { sourceId: 'half\\udc00', outcome: 'rejected', revision: null, reason: expect.stringContaining('sourceId must be') },
        { sourceId: 'unstorable-field', outcome: 'rejected', revision: null, reason: 'unknown field x\\u0000' },
      ]);
      const replay = await push();
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.json().results).toEqual(first.json().results);
      const audit = await harness.runtime.eventStore.readStream(`import-${first.json().runId}`);
      expect(audit.map((e) => e.type)).toEqual([
        'ImportRunStarted',
        ...Array<string>(4).fill('ImportRecordProcessed'),
        'ImportRunCompleted',
      ]);
    });
  });

  describe('when one record is too large for the store (IDEM_MAX_APPEND_BYTES, 1 MiB by default)', () => {
    it('answers it rejected, with why, imports the rest and records the batch', async () => {
      const response = await postBatch(
        { sourceId: 'huge-before', fields: { a: 1 } },
        { sourceId: 'huge', fields: { blob: 'x'.repeat(1_100_000) } },
        { sourceId: 'huge-after', fields: { a: 2 } },
      );
      expect(response.statusCode).toBe(200);
      expect(response.json().results).toEqual([
        { sourceId: 'huge-before', outcome: 'imported', revision: 0 },
        { sourceId: 'huge', outcome: 'rejected', revision: null, reason: expect.stringMatching(/too large to store.*limit is 1048576/) },
        { sourceId: 'huge-after', outcome: 'imported', revision: 0 },
      ]);
      const { runId } = response.json();
      const audit = await harness.runtime.eventStore.readStream(`import-${runId}`);
      expect(audit.filter((e) => e.type === 'ImportRecordProcessed').map((e) => (e.data as { outcome: string }).outcome)).toEqual([
        'imported',
        'rejected',
        'imported',
      ]);
      const written = await harness.runtime.pool.query(`SELECT 1 FROM idem_events WHERE stream_name = 'contact-crm.huge'`);
      expect(written.rowCount).toBe(0);
    });
  });

  describe('when a record holds invalid Unicode (a lone UTF-16 surrogate, in a value or a key)', () => {
    it('answers it rejected, with why, writes no contact for it and imports the rest', async () => {
      // PostgreSQL's jsonb, where the read models keep contacts, cannot hold a lone surrogate: stored,
      // such an event would stop the contacts read model for good.
      const response = await postBatch(
        { sourceId: 'lone-value', fields: { name: 'half \ud800 a pair' } },
        { sourceId: 'lone-key', fields: { ['\udc00']: 'x' } },
        { sourceId: 'lone-after', fields: { name: 'a whole pair 😀' } },
      );
      expect(response.statusCode).toBe(200);
      expect(response.json().results).toEqual([
        { sourceId: 'lone-value', outcome: 'rejected', revision: null, reason: expect.stringMatching(/lone UTF-16 surrogate/) },
        { sourceId: 'lone-key', outcome: 'rejected', revision: null, reason: expect.stringMatching(/lone UTF-16 surrogate/) },
        { sourceId: 'lone-after', outcome: 'imported', revision: 0 },
      ]);
      const written = await harness.runtime.pool.query(`SELECT 1 FROM idem_events WHERE stream_name LIKE 'contact-crm.lone-%'`);
      expect(written.rowCount).toBe(1);
    });
  });

  describe('when the body is not valid UTF-8 (a raw 0xFF or 0xFE byte in a value)', () => {
    it('refuses it with 400 REQUEST.MALFORMED and writes nothing: no contact, not even U+FFFD in its place', async () => {
      const before = await eventCount();
      const getContact = (sourceId: string) =>
        harness.app.inject({ method: 'GET', url: `/v1/contacts/crm/${sourceId}`, headers: auth('support') });
      for (const byte of [0xff, 0xfe]) {
        const [head, tail] = JSON.stringify(batch({ sourceId: 'p8', version: 1, fields: { n: 'a@b' } })).split('@');
        const response = await harness.app.inject({
          method: 'POST',
          url: '/v1/contacts/import',
          headers: { ...auth('sync'), 'content-type': 'application/json' },
          body: Buffer.concat([Buffer.from(head), Buffer.from([byte]), Buffer.from(tail)]),
        });
        expectProblem(response, 400, 'REQUEST.MALFORMED');
      }
      expect(await eventCount()).toBe(before);
      // A contact pushed after them shows up: by then p8 would have too, had it been written.
      expect((await postBatch({ ...ok, sourceId: 'p9' })).statusCode).toBe(200);
      await waitUntil(
        () => getContact('p9'),
        (answer) => answer.statusCode === 200,
        10_000,
      );
      expect((await getContact('p8')).statusCode).toBe(404);
    });
  });

  it('stays up and serves a valid request afterwards', async () => {
    const response = await postBatch({ ...ok, sourceId: 'after' });
    expect(response.statusCode).toBe(200);
    expect((await harness.app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);
  });
});
