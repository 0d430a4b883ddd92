/**
 * GET /v1/contacts/{source}/{sourceId}/imports pages a record's import trail as the run list pages
 * runs: `limit` rows (default 100), `next` the cursor of the page after, null on the last; a record
 * touched by thousands of runs answered every one of them at once. A cursor this service did not write,
 * a limit out of range or an unknown parameter is a 400 problem+json naming the field.
 */
import { randomUUID } from 'node:crypto';
import { auth, startTestApp, type TestApp } from '../../../test/harness/test-app';
import { expectProblem } from '../../../test/harness/expect-problem';
import { pushContacts } from '../../../test/harness/push-contacts';
import { waitUntilCaughtUp } from '../../../test/projections/projection-harness';
import { readModelProjection } from '../../../src/subscriptions/read-models/read-model.projection';
import { startProjections } from '../../../src/subscriptions/start-projections';
import { importEventsReadModel } from '../../../projections/import-events/import-events.projector';

let harness: TestApp;
const sourceId = `trail-${randomUUID().slice(0, 8)}`;
const url = `/v1/contacts/crm/${sourceId}/imports`;

beforeAll(async () => {
  harness = await startTestApp('import_trail');
  // Seven rows: five pushes of rising versions, then one batch carrying the record twice (a row each).
  for (let version = 1; version <= 5; version++)
    expect((await pushContacts(harness.app, [{ sourceId, version, fields: { version } }])).statusCode).toBe(200);
  expect(
    (
      await pushContacts(harness.app, [
        { sourceId, version: 5, fields: { version: 5 } },
        { sourceId, version: 1, fields: { version: 1 } },
      ])
    ).statusCode,
  ).toBe(200);
  const { eventStore: store, pool } = harness.runtime;
  const running = await startProjections({ store, pool, readModels: [importEventsReadModel], reactors: [] });
  try {
    await waitUntilCaughtUp(store, pool, [readModelProjection(importEventsReadModel)], 60_000);
  } finally {
    await running.stop();
  }
}, 120_000);
afterAll(() => harness?.close());

const get = (query = '') => harness.app.inject({ method: 'GET', url: `${url}${query}`, headers: auth('support') });

describe('GET /v1/contacts/{source}/{sourceId}/imports', () => {
  it('answers the whole trail on one page when it fits, oldest first, with next null', async () => {
    const answer = (await get()).json();
    expect(answer.next).toBeNull();
    expect(answer.imports.map((i: { outcome: string }) => i.outcome)).toEqual([
      'imported',
      'updated',
      'updated',
      'updated',
      'updated',
      'unchanged',
      'skipped_stale',
    ]);
  });

  it('pages it `limit` rows at a time, each row once, in order, next null on the last page', async () => {
    const all = (await get()).json().imports;
    const pages: unknown[][] = [];
    let cursor: string | null = null;
    do {
      const answer: { imports: unknown[]; next: string | null } = (await get(`?limit=3${cursor ? `&cursor=${cursor}` : ''}`)).json();
      pages.push(answer.imports);
      cursor = answer.next;
    } while (cursor !== null && pages.length < 10);
    expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual(all);
  });

  it('says no page follows a full last page', async () => {
    const first = (await get('?limit=7')).json();
    expect(first.imports).toHaveLength(7);
    expect(first.next).toBeNull();
  });

  it.each([
    ['a cursor it did not write', '?cursor=not-a-cursor', 'cursor'],
    ['a run list cursor', `?cursor=${Buffer.from(JSON.stringify(['2026-12-03T10:00:00.000Z', 'run.x'])).toString('base64url')}`, 'cursor'],
    ['a limit of 0', '?limit=0', 'limit'],
    ['a limit over 1000', '?limit=1001', 'limit'],
    ['an unknown parameter', '?after=1', 'after'],
  ])('answers %s with 400 problem+json naming the field', async (_label, query, field) => {
    const answer = await get(query);
    expectProblem(answer, 400, 'REQUEST.INVALID');
    expect(answer.json().errors).toEqual([expect.objectContaining({ field })]);
  });
});
