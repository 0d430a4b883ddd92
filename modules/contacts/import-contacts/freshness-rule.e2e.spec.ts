/**
 * Invariant 5 through POST /v1/contacts/import, on the two cases a black-box run once broke: updatedAt
 * values a few microseconds apart (compared at millisecond precision, the checksum decided), and a
 * record without a version arriving between versions (arrival order decided, so v2 overwrote v3).
 */
import { randomUUID } from 'node:crypto';
import { auth, startTestApp, type TestApp } from '../../../test/harness/test-app';

let harness: TestApp;
beforeAll(async () => {
  harness = await startTestApp('contacts_freshness_rule');
});
afterAll(() => harness.close());

const push = async (records: unknown[]) => {
  const answer = await harness.app.inject({
    method: 'POST',
    url: '/v1/contacts/import',
    headers: auth('sync'),
    payload: { source: 'crm', records },
  });
  expect(answer.statusCode).toBe(200);
  return answer.json().results as Array<{ outcome: string; revision: number; reason?: string }>;
};
/** The last event of the contact's stream: it keeps updatedAt as the source spelled it (the read model keeps milliseconds). */
const lastEvent = async (sourceId: string) => {
  const answer = await harness.app.inject({ method: 'GET', url: `/v1/contacts/crm/${sourceId}/events`, headers: auth('support') });
  return answer.json().events.at(-1) as { type: string; data: Record<string, unknown> };
};
const uniqueId = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

describe('POST /v1/contacts/import and the freshness rule', () => {
  describe('when one batch holds two updatedAt values in the same millisecond', () => {
    const at = (sourceId: string, updatedAt: string, name: string) => ({ sourceId, updatedAt, fields: { name } });

    it('keeps the later instant whichever comes first, and says what the earlier lost to', async () => {
      const inOrder = uniqueId('us1');
      const reversed = uniqueId('us1');
      const first = '2026-12-01T10:00:00.100001Z';
      const second = '2026-12-01T10:00:00.100900Z';
      const forwards = await push([at(inOrder, first, 'first'), at(inOrder, second, 'second')]);
      expect(forwards.map((r) => r.outcome)).toEqual(['imported', 'updated']);
      const backwards = await push([at(reversed, second, 'second'), at(reversed, first, 'first')]);
      expect(backwards.map((r) => r.outcome)).toEqual(['imported', 'skipped_stale']);
      expect(backwards[1].reason).toContain(`lost to updatedAt ${second}`);

      for (const sourceId of [inOrder, reversed]) {
        expect((await lastEvent(sourceId)).data).toMatchObject({ sourceUpdatedAt: second, fields: { name: 'second' } });
      }
    });
  });

  describe('when a record without a version comes between versions', () => {
    const version = (sourceId: string, v: number) => ({ sourceId, version: v, eventId: `${sourceId}-v${v}`, fields: { v } });
    const touch = (sourceId: string) => ({ sourceId, updatedAt: '2030-01-01T00:00:00Z', eventId: `${sourceId}-t`, fields: { v: 'touch' } });

    it('ranks it below every version, so an older version never overwrites a newer one', async () => {
      const id = uniqueId('mxC');
      const results = await push([version(id, 3), touch(id), version(id, 2)]);
      expect(results.map((r) => r.outcome)).toEqual(['imported', 'skipped_stale', 'skipped_stale']);
      expect(results[1].reason).toContain('lost to version 3');
      expect(results[2].reason).toContain('lost to version 3');
      expect((await lastEvent(id)).data).toMatchObject({ sourceVersion: 3, fields: { v: 3 } });
    });

    it('ends in the same state whichever of the two arrives first', async () => {
      const [a, b] = [uniqueId('mxC'), uniqueId('mxC')];
      expect((await push([version(a, 3), touch(a)])).map((r) => r.outcome)).toEqual(['imported', 'skipped_stale']);
      expect((await push([touch(b), version(b, 3)])).map((r) => r.outcome)).toEqual(['imported', 'updated']);
      for (const sourceId of [a, b]) {
        const get = await harness.app.inject({ method: 'GET', url: `/v1/contacts/crm/${sourceId}`, headers: auth('support') });
        expect(get.json()).toMatchObject({ version: 3, fields: { v: 3 } });
        expect(get.json().updatedAt).toBeUndefined();
      }
    });
  });
});
