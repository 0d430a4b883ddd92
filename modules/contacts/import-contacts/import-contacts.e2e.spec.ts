/**
 * The push proofs of issue 14: a batch sent again and again, and from several clients at once,
 * leaves each contact once with one revision per distinct version; an Idempotency-Key gets the
 * original answers back; what is stale or contradictory is answered and audited, never appended.
 */
import { hash, randomUUID } from 'node:crypto';
import { auth, startTestApp, type TestApp } from '../../../test/harness/test-app';
import { pushContacts } from '../../../test/harness/push-contacts';
import { importStream } from '../contact.events';
import { appendLinked } from '../../../src/command-handling/append-linked';
import { toEventToAppend } from '../../../src/command-handling/event-to-append';
import { pushRunEvents, pushRunId } from './push-run';

const metadata = { correlationId: 'earlier', causationId: 'earlier', actor: { role: 'sync', tokenId: 'earlier' } };

let harness: TestApp;
beforeAll(async () => {
  harness = await startTestApp('contacts_push');
});
afterAll(() => harness.close());

const push = (records: unknown[], headers: Record<string, string> = {}) => pushContacts(harness.app, records, headers);
const streamsLike = async (prefix: string) =>
  (
    await harness.runtime.pool.query(
      `SELECT stream_name, count(*)::int AS events FROM idem_events WHERE stream_name LIKE $1 GROUP BY 1 ORDER BY 1`,
      [`contact-crm.${prefix}%`],
    )
  ).rows as Array<{ stream_name: string; events: number }>;
const batchOf = (prefix: string, n: number, version = 1) =>
  Array.from({ length: n }, (_, i) => ({
    sourceId: `${prefix}${i}`,
    version,
    eventId: `${prefix}${i}-v${version}`,
    fields: { name: `Customer ${i}`, v: version },
  }));

describe('POST /v1/contacts/import', () => {
  describe('when the same batch is posted three times', () => {
    it('imports each contact once, then answers duplicate, with one revision each', async () => {
      const records = batchOf(`three-${randomUUID().slice(0, 8)}-`, 50);
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push((await push(records)).json());
      expect(answers[0].counts).toEqual({ imported: 50 });
      expect(answers[1].counts).toEqual({ duplicate: 50 });
      expect(answers[2].counts).toEqual({ duplicate: 50 });
      expect(answers[2].results[7]).toEqual({
        sourceId: records[7].sourceId,
        outcome: 'duplicate',
        revision: 0,
        reason: expect.stringContaining('already applied'),
      });
      const streams = await streamsLike(records[0].sourceId.replace(/0$/, ''));
      expect(streams).toHaveLength(50);
      expect(streams.every((s) => s.events === 1)).toBe(true);
    });

    it('answers unchanged when the records carry no event id', async () => {
      const records = batchOf(`noid-${randomUUID().slice(0, 8)}-`, 5).map(({ eventId: _id, ...r }) => r);
      expect((await push(records)).json().counts).toEqual({ imported: 5 });
      expect((await push(records)).json().counts).toEqual({ unchanged: 5 });
    });
  });

  describe('when four clients post the same batch at once', () => {
    it('gives every contact exactly one revision: one client gets imported, the others duplicate', async () => {
      const records = batchOf(`four-${randomUUID().slice(0, 8)}-`, 200);
      const answers = (await Promise.all([push(records), push(records), push(records), push(records)])).map((r) => r.json());
      for (let i = 0; i < records.length; i++) {
        const outcomes = answers.map((a) => a.results[i].outcome).sort();
        expect(outcomes).toEqual(['duplicate', 'duplicate', 'duplicate', 'imported']);
        expect(answers.map((a) => a.results[i].revision)).toEqual([0, 0, 0, 0]);
      }
      const streams = await streamsLike(records[0].sourceId.replace(/0$/, ''));
      expect(streams).toHaveLength(200);
      expect(streams.every((s) => s.events === 1)).toBe(true);
    });
  });

  describe('when a batch holding two versions of each contact is posted three times, then by four clients at once', () => {
    it('gives each contact one revision per distinct version: each version applied once, every other delivery a duplicate', async () => {
      const prefix = `two-${randomUUID().slice(0, 8)}-`;
      const twoVersions = (from: number) => [...batchOf(prefix, 100, from), ...batchOf(prefix, 100, from + 1)];
      const outcomesOf = (answers: Array<{ results: Array<{ outcome: string }> }>, i: number) =>
        answers.map((a) => a.results[i].outcome).sort();

      const sequential = [];
      for (let i = 0; i < 3; i++) sequential.push((await push(twoVersions(1))).json());
      expect(sequential.map((a) => a.counts)).toEqual([{ imported: 100, updated: 100 }, { duplicate: 200 }, { duplicate: 200 }]);

      const records = twoVersions(3);
      const concurrent = (await Promise.all([push(records), push(records), push(records), push(records)])).map((r) => r.json());
      for (let i = 0; i < records.length; i++)
        expect(outcomesOf(concurrent, i)).toEqual(['duplicate', 'duplicate', 'duplicate', 'updated']);

      const streams = await streamsLike(prefix);
      expect(streams).toHaveLength(100);
      expect(streams.every((s) => s.events === 4)).toBe(true);
      const versions = await harness.runtime.eventStore.readStream(`contact-crm.${prefix}7`);
      expect(versions.map((e) => [e.revision, e.data.sourceVersion])).toEqual([
        [0, 1],
        [1, 2],
        [2, 3],
        [3, 4],
      ]);
    });
  });

  describe('with an Idempotency-Key', () => {
    it('replays the original per-record answers, and refuses the key with another body', async () => {
      const records = batchOf(`key-${randomUUID().slice(0, 8)}-`, 10);
      const key = { 'idempotency-key': randomUUID() };
      const first = await push(records, key);
      const again = await push(records, key);
      expect(first.json().counts).toEqual({ imported: 10 });
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json()).toEqual(first.json());
      const otherBatch = batchOf(`key-other-${randomUUID().slice(0, 8)}-`, 1);
      const other = await push(otherBatch, key);
      expect(other.statusCode).toBe(422);
      expect(other.json().code).toBe('IDEMPOTENCY_KEY.REUSED');
      expect(await harness.runtime.eventStore.readStream(`contact-crm.${otherBatch[0].sourceId}`)).toEqual([]);
    });

    it("answers ten concurrent requests with one key with the first one's answers, nine of them marked replayed", async () => {
      const records = batchOf(`keyc-${randomUUID().slice(0, 8)}-`, 20);
      const key = { 'idempotency-key': randomUUID() };
      const responses = await Promise.all(Array.from({ length: 10 }, () => push(records, key)));
      const answers = responses.map((r) => r.json());
      for (const answer of answers) expect(answer).toEqual(answers[0]);
      expect(answers[0].counts).toEqual({ imported: 20 });
      expect(responses.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(9);
    });

    it('replays a body that says the same with its keys in another order', async () => {
      const records = batchOf(`keyo-${randomUUID().slice(0, 8)}-`, 3);
      const key = { 'idempotency-key': randomUUID() };
      const first = await push(records, key);
      const reordered = records.map((record) => Object.fromEntries(Object.entries(record).reverse()));
      const again = await push(reordered, key);
      expect(again.statusCode).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json()).toEqual(first.json());
    });
    it('replays a push recorded before key order stopped counting, under the fingerprint of the body as spelled', async () => {
      const prefix = `keyl-${randomUUID().slice(0, 8)}-`;
      // batchOf spells sourceId, version, eventId, fields: not the sorted order, so the two fingerprints differ.
      const records = batchOf(prefix, 2);
      const key = randomUUID();
      const runId = pushRunId(hash('sha256', 'dev-sync', 'hex').slice(0, 8), key);
      const spelled = hash('sha256', JSON.stringify(['crm', records]), 'hex').slice(0, 32);
      // What the earlier code recorded for this key: its answers, under the fingerprint of the body as spelled.
      const answers = records.map((record, seq) => ({ seq, sourceId: record.sourceId, outcome: 'imported' as const, revision: 0 }));
      const stream = importStream(runId);
      const events = pushRunEvents(runId, 'crm', 'sync', spelled, answers).map((event, i) =>
        toEventToAppend(stream, { event, key: `earlier/${i}` }, metadata, new Date().toISOString()),
      );
      await appendLinked(harness.runtime.eventStore, stream, events, 'no_stream');

      const again = await push(records, { 'idempotency-key': key });
      expect(again.statusCode).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json().results).toEqual(answers.map(({ sourceId, outcome, revision }) => ({ sourceId, outcome, revision })));
      // The recorded answers, not fresh judgements: nothing was imported by the retry.
      expect(await streamsLike(prefix)).toEqual([]);
      expect((await push(batchOf(prefix, 1), { 'idempotency-key': key })).json().code).toBe('IDEMPOTENCY_KEY.REUSED');
    });
  });

  describe('when records arrive out of order', () => {
    it('skips the stale one (audited with what it lost to), refuses a contradiction, and a delete hides the contact until a fresher version', async () => {
      const id = `ooo-${randomUUID().slice(0, 8)}`;
      const v = (version: number, extra: object = {}) => ({
        sourceId: id,
        version,
        eventId: `${id}-${version}-${JSON.stringify(extra).length}`,
        fields: { v: version },
        ...extra,
      });
      const get = () => harness.app.inject({ method: 'GET', url: `/v1/contacts/crm/${id}`, headers: auth('support') });
      // Each push is its own run; the audit is read from those runs' streams, in the order they were pushed.
      const runIds: string[] = [];
      const pushRun = async (records: unknown[]) => {
        const answer = await push(records);
        runIds.push(answer.json().runId);
        return answer;
      };
      expect((await pushRun([v(3)])).json().results[0]).toMatchObject({ outcome: 'imported', revision: 0 });
      const stale = (await pushRun([v(2)])).json();
      expect(stale.results[0]).toEqual({
        sourceId: id,
        outcome: 'skipped_stale',
        revision: 0,
        reason: expect.stringContaining('lost to version 3'),
      });
      expect((await pushRun([v(3, { fields: { v: 'other' } })])).json().results[0].outcome).toBe('conflict');
      expect((await get()).json()).toMatchObject({ version: 3, fields: { v: 3 }, revision: 0 });

      expect((await pushRun([v(4, { deleted: true, fields: undefined })])).json().results[0]).toMatchObject({
        outcome: 'deleted',
        revision: 1,
      });
      expect((await get()).statusCode).toBe(404);
      expect((await pushRun([v(3, { eventId: 'late-3' })])).json().results[0].outcome).toBe('skipped_stale');
      expect((await get()).statusCode).toBe(404);
      expect((await pushRun([v(5)])).json().results[0]).toMatchObject({ outcome: 'updated', revision: 2 });
      expect((await get()).json()).toMatchObject({ version: 5, fields: { v: 5 }, revision: 2 });

      // Not readAll: the PostgreSQL store's $all holds back events above any transaction still open in the
      // cluster (the gap-free rule), and other test files write to the same cluster meanwhile.
      const runs = await Promise.all(runIds.map((runId) => harness.runtime.eventStore.readStream(importStream(runId))));
      const audit = runs
        .flat()
        .filter((e) => e.type === 'ImportRecordProcessed')
        .map((e) => e.data)
        .filter((d) => d.sourceId === id);
      expect(audit.map((d) => d.outcome)).toEqual(['imported', 'skipped_stale', 'conflict', 'deleted', 'skipped_stale', 'updated']);
      expect(audit[1].reason).toContain('lost to version 3');
    });
  });
});

describe('GET /v1/contacts/{source}/{sourceId}, /events and /imports', () => {
  // Issue 14's read side: the contact to sync, support and auditors; its history to support and auditors.
  const allowed: Array<[label: string, suffix: string, permitted: string[]]> = [
    ['the contact', '', ['sync', 'support', 'auditor']],
    ['its events', '/events', ['support', 'auditor']],
    ['its import trail', '/imports', ['sync', 'support', 'auditor']],
  ];
  const roles = ['storefront', 'sync', 'support', 'auditor'] as const;

  it.each(allowed)('shows %s to its roles only', async (_label, suffix, permitted) => {
    const [record] = batchOf(`roles-${randomUUID().slice(0, 8)}-`, 1);
    await push([record]);
    for (const role of roles) {
      const answer = await harness.app.inject({ method: 'GET', url: `/v1/contacts/crm/${record.sourceId}${suffix}`, headers: auth(role) });
      expect([role, answer.statusCode]).toEqual([role, permitted.includes(role) ? 200 : 403]);
    }
  });
});

describe('GET /v1/contacts/{source}/{sourceId}/events', () => {
  it('shows the history to support and auditors only', async () => {
    const [record] = batchOf(`ev-${randomUUID().slice(0, 8)}-`, 1);
    await push([record]);
    const url = `/v1/contacts/crm/${record.sourceId}/events`;
    const seen = await harness.app.inject({ method: 'GET', url, headers: auth('auditor') });
    expect(seen.json().events).toEqual([expect.objectContaining({ revision: 0, type: 'ContactImported' })]);
    expect((await harness.app.inject({ method: 'GET', url, headers: auth('sync') })).statusCode).toBe(403);
    expect((await harness.app.inject({ method: 'GET', url: '/v1/contacts/crm/nobody/events', headers: auth('support') })).statusCode).toBe(
      404,
    );
    expect(
      (await harness.app.inject({ method: 'GET', url: `/v1/contacts/crm/${record.sourceId}`, headers: auth('storefront') })).statusCode,
    ).toBe(403);
  });
});
