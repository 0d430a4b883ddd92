/**
 * A refused push writes nothing (DESIGN.md §9.4, §9.7): the run is claimed before any contact is
 * written, so a reused Idempotency-Key or a request still in progress is answered without importing;
 * a claim whose request died is taken over after the lease; and a batch within the route's limits is
 * recorded whatever the size of its audit (the run's events go in appends that fit the store's limit).
 */
import { hash, randomUUID } from 'node:crypto';
import { auth, startTestApp, type TestApp } from '../../../test/harness/test-app';
import { pushContacts } from '../../../test/harness/push-contacts';
import { appendLinked } from '../../../src/command-handling/append-linked';
import { toEventToAppend } from '../../../src/command-handling/event-to-append';
import { appendedBytes, DEFAULT_MAX_APPEND_BYTES } from '../../../src/event-store/append-validation';
import { importStream } from '../contact.events';
import { parseImportRequest } from './import-request';
import { pushClaim, pushRunId } from './push-run';
import { PUSH_CLAIM_LEASE_MS } from './push-claim.decision';

let harness: TestApp;
beforeAll(async () => {
  harness = await startTestApp('contacts_push_claim');
});
afterAll(() => harness.close());

const push = (records: unknown[], headers: Record<string, string> = {}) => pushContacts(harness.app, records, headers);
const contactEvents = (sourceId: string) => harness.runtime.eventStore.readStream(`contact-crm.${sourceId}`);
const getRun = (runId: string) => harness.app.inject({ method: 'GET', url: `/v1/sync/runs/${runId}`, headers: auth('support') });
const batchOf = (prefix: string, n: number, version = 1) =>
  Array.from({ length: n }, (_, i) => ({
    sourceId: `${prefix}${i}`,
    version,
    eventId: `${prefix}${i}-v${version}`,
    fields: { i, version },
  }));
// The dev-sync token's id, as the harness's auth sees it: push run ids derive from it and the key.
const devSyncRunId = (key: string) => pushRunId(hash('sha256', 'dev-sync', 'hex').slice(0, 8), key);

/** What a request that died after its claim left: ImportRunStarted alone, recorded `ageMs` ago. */
async function claimByHand(records: unknown[], key: string, ageMs: number): Promise<string> {
  const runId = devSyncRunId(key);
  const stream = importStream(runId);
  const { fingerprint } = parseImportRequest({ source: 'crm', records });
  const metadata = { correlationId: 'died', causationId: 'died', actor: { role: 'sync', tokenId: 'died' } };
  const recordedAt = new Date(Date.now() - ageMs).toISOString();
  const claim = toEventToAppend(stream, { event: pushClaim(runId, 'crm', 'sync', fingerprint), key: 'died/claim' }, metadata, recordedAt);
  await appendLinked(harness.runtime.eventStore, stream, [claim], 'no_stream');
  return runId;
}

describe('POST /v1/contacts/import with an Idempotency-Key', () => {
  describe('when two requests with one key and different bodies arrive at once', () => {
    it('answers one 200 and one 422, and the refused body imports nothing', async () => {
      const key = { 'idempotency-key': randomUUID() };
      const a = batchOf(`race-a-${randomUUID().slice(0, 8)}-`, 30);
      const b = batchOf(`race-b-${randomUUID().slice(0, 8)}-`, 30);
      const [ra, rb] = await Promise.all([push(a, key), push(b, key)]);
      expect([ra.statusCode, rb.statusCode].sort()).toEqual([200, 422]);
      const [winner, loser] = ra.statusCode === 200 ? [a, b] : [b, a];
      expect((ra.statusCode === 422 ? ra : rb).json().code).toBe('IDEMPOTENCY_KEY.REUSED');
      for (const record of loser) expect(await contactEvents(record.sourceId)).toEqual([]);
      for (const record of winner) expect(await contactEvents(record.sourceId)).toHaveLength(1);
      const run = (await getRun(devSyncRunId(key['idempotency-key']))).json();
      expect(run).toMatchObject({ status: 'completed', processed: 30, counts: expect.objectContaining({ imported: 30 }) });
    });
  });

  describe('when the same body is sent twice at once', () => {
    it('imports the contacts once: one answer is fresh, the other a replay of it or a 409', async () => {
      const key = { 'idempotency-key': randomUUID() };
      const records = batchOf(`same-${randomUUID().slice(0, 8)}-`, 30);
      const responses = await Promise.all([push(records, key), push(records, key)]);
      const fresh = responses.filter((r) => r.statusCode === 200 && r.headers['idempotent-replayed'] !== 'true');
      expect(fresh).toHaveLength(1);
      const other = responses.find((r) => r !== fresh[0])!;
      if (other.statusCode === 200) expect(other.json()).toEqual(fresh[0].json());
      else expect(other.json()).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY.IN_PROGRESS' });
      for (const record of records) expect(await contactEvents(record.sourceId)).toHaveLength(1);
    });
  });

  describe('when the key is claimed by a request still within its lease', () => {
    it('answers 409 IDEMPOTENCY_KEY.IN_PROGRESS as problem+json and writes nothing', async () => {
      const key = randomUUID();
      const records = batchOf(`busy-${randomUUID().slice(0, 8)}-`, 3);
      const runId = await claimByHand(records, key, 0);
      const busy = await push(records, { 'idempotency-key': key });
      expect(busy.statusCode).toBe(409);
      expect(busy.headers['content-type']).toContain('application/problem+json');
      expect(busy.json().code).toBe('IDEMPOTENCY_KEY.IN_PROGRESS');
      // When to send it again, the HTTP way (a few seconds: the request in progress answers soon).
      expect(busy.headers['retry-after']).toBe('2');
      expect(await contactEvents(records[0].sourceId)).toEqual([]);
      expect(await harness.runtime.eventStore.readStream(importStream(runId))).toHaveLength(1);
      const other = await push(batchOf(`busy-other-${randomUUID().slice(0, 8)}-`, 1), { 'idempotency-key': key });
      expect(other.json().code).toBe('IDEMPOTENCY_KEY.REUSED');
    });
  });

  describe('when the request that claimed the key died before recording its answers', () => {
    it('lets a retry after the lease take the run over and finish it; what the dead request imported answers duplicate', async () => {
      const key = randomUUID();
      const records = batchOf(`died-${randomUUID().slice(0, 8)}-`, 4);
      const runId = await claimByHand(records, key, PUSH_CLAIM_LEASE_MS + 1000);
      // The dead request got as far as importing the first record.
      expect((await push([records[0]])).json().counts).toEqual({ imported: 1 });

      const retry = await push(records, { 'idempotency-key': key });
      expect(retry.statusCode).toBe(200);
      expect(retry.json().counts).toEqual({ duplicate: 1, imported: 3 });
      const types = (await harness.runtime.eventStore.readStream(importStream(runId))).map((e) => e.type);
      expect(types).toEqual(['ImportRunStarted', 'ImportRunResumed', ...records.map(() => 'ImportRecordProcessed'), 'ImportRunCompleted']);
      expect((await getRun(runId)).json()).toMatchObject({ status: 'completed', processed: 4 });

      const again = await push(records, { 'idempotency-key': key });
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json()).toEqual(retry.json());
    });
  });
});

describe('POST /v1/contacts/import of a batch whose audit outgrows one append', () => {
  // The largest a record's ids may be: a 64-character sourceId, a 128-character checksum and eventId.
  const fat = (prefix: string, i: number, version: number, tag: string) => ({
    sourceId: `${prefix}${i}-`.padEnd(64, '0'),
    version,
    updatedAt: `2026-12-01T10:00:0${version}.000+01:00`,
    checksum: tag.repeat(128),
    eventId: `${tag}-${version}-${i}-`.padEnd(128, 'e'),
    fields: { i },
  });
  it('records every answer of 1,000 records with the longest ids, checksums and event ids', async () => {
    const prefix = `fat${randomUUID().slice(0, 8)}-`;
    const first = Array.from({ length: 1000 }, (_, i) => fat(prefix, i, 1, 'a'));
    expect((await push(first)).json().counts).toEqual({ imported: 1000 });
    // Half a newer version, half the same version with other content: every answer quotes what it met.
    const second = first.map((_, i) => (i % 2 === 0 ? fat(prefix, i, 2, 'b') : fat(prefix, i, 1, 'c')));
    const response = await push(second);
    expect(response.statusCode).toBe(200);
    const answer = response.json();
    expect(answer.results).toHaveLength(1000);
    expect(answer.counts).toEqual({ updated: 500, conflict: 500 });
    const run = (await getRun(answer.runId)).json();
    expect(run).toMatchObject({ status: 'completed', processed: 1000 });
    expect(run.counts).toMatchObject({ updated: 500, conflict: 500 });
    // The run's audit is more than one append may hold: it went in several.
    const events = await harness.runtime.eventStore.readStream(importStream(answer.runId));
    expect(events.reduce((bytes, e) => bytes + appendedBytes(e), 0)).toBeGreaterThan(DEFAULT_MAX_APPEND_BYTES);
  });

  it('records a valid record beside 999 rejected ones with many unknown fields (a body of about 4 MB)', async () => {
    const [valid] = batchOf(`few-${randomUUID().slice(0, 8)}-`, 1);
    const noise = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`unknown_field_with_a_long_name_${'z'.repeat(30)}_${i}`, i]));
    const rejected = Array.from({ length: 999 }, (_, i) => ({ sourceId: `bad-${i}`, fields: {}, ...noise }));
    const response = await push([valid, ...rejected]);
    expect(response.statusCode).toBe(200);
    const answer = response.json();
    expect(answer.counts).toEqual({ imported: 1, rejected: 999 });
    expect(answer.results[1].reason.length).toBeLessThanOrEqual(2000);
    expect((await getRun(answer.runId)).json()).toMatchObject({ status: 'completed', processed: 1000 });
  });
});
