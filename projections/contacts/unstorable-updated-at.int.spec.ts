/**
 * Events written before the import refused an updatedAt outside the years 0001–9999 (91462c9) are
 * immutable, and the `contacts` and `import_events` projections stalled on them for good. Here such
 * events are appended straight to the store, bypassing validation, between ordinary ones: both
 * projections go on, store the row with updatedAt null (the event keeps the time as sent), and
 * rebuild and verify agree with the live rows.
 */
import { randomUUID } from 'node:crypto';
import type { EventToAppend } from '../../src/event-store/event-store.port';
import { readModelProjection } from '../../src/subscriptions/read-models/read-model.projection';
import { rebuildReadModels } from '../../src/subscriptions/read-models/rebuild';
import { verifyReadModel } from '../../src/subscriptions/read-models/verify';
import { startProjections } from '../../src/subscriptions/start-projections';
import { createProjectionDatabase, waitUntilCaughtUp, type ProjectionDatabase } from '../../test/projections/projection-harness';
import { importEventsReadModel } from '../import-events/import-events.projector';
import { contactsReadModel } from './contacts.projector';

/** What reached the store before the door refused it: year 0000, an offset before 0001, past 9999, JS's six-digit year, no instant. */
const UNSTORABLE = [
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00+01:00',
  '9999-12-31T23:59:59-23:59',
  '+010000-01-01T00:00:00.000Z',
  'yesterday',
];
const ORDINARY = '2026-11-30T10:00:00.100900+00:00';

const metadata = () => ({
  correlationId: randomUUID(),
  causationId: randomUUID(),
  actor: { role: 'sync', tokenId: 'spec' },
  recordedAt: '2026-12-01T00:00:00.000Z',
});

const event = (type: string, data: Record<string, unknown>): EventToAppend => ({ id: randomUUID(), type, data, metadata: metadata() });

describe('an updatedAt the read models cannot hold, already in the store', () => {
  let db: ProjectionDatabase;
  beforeAll(async () => {
    db = await createProjectionDatabase('unstorable_updated_at');
  });
  afterAll(() => db.close());

  it('is kept as null by contacts and import_events, which go on past it and rebuild and verify the same', async () => {
    const runId = `run-${randomUUID()}`;
    const times = [...UNSTORABLE, ORDINARY];
    for (const [seq, sourceUpdatedAt] of times.entries()) {
      const sourceId = `c${seq}`;
      const fields = { name: `name ${seq}` };
      await db.store.append(
        `contact-crm.${sourceId}`,
        [
          event('ContactImported', {
            source: 'crm',
            sourceId,
            sourceVersion: 1,
            sourceUpdatedAt,
            checksum: `sum${seq}`,
            fields,
            runId,
            seq,
          }),
        ],
        'no_stream',
      );
    }
    await db.store.append(
      `import-${runId}`,
      times.map((sourceUpdatedAt, seq) =>
        event('ImportRecordProcessed', {
          runId,
          seq,
          source: 'crm',
          sourceId: `c${seq}`,
          sourceVersion: 1,
          sourceUpdatedAt,
          checksum: `sum${seq}`,
          outcome: 'imported',
          revision: 0,
        }),
      ),
      'no_stream',
    );

    const models = [contactsReadModel, importEventsReadModel];
    const running = await startProjections({ store: db.store, pool: db.pool, readModels: models, reactors: [] });
    try {
      await waitUntilCaughtUp(db.store, db.pool, models.map(readModelProjection), 15_000);
    } finally {
      await running.stop();
    }

    const expected = times.map((time, seq) => ({
      sourceId: `c${seq}`,
      updatedAt: time === ORDINARY ? '2026-11-30T10:00:00.100Z' : null,
    }));
    const contacts = await db.pool.query<{ sourceId: string; updatedAt: Date | null; fields: unknown }>(
      `SELECT source_id AS "sourceId", updated_at AS "updatedAt", fields FROM contacts_v1 ORDER BY source_id`,
    );
    expect(contacts.rows.map((row) => ({ sourceId: row.sourceId, updatedAt: row.updatedAt?.toISOString() ?? null }))).toEqual(expected);
    expect(contacts.rows[0].fields).toEqual({ name: 'name 0' });
    const audit = await db.pool.query<{ sourceId: string; updatedAt: Date | null; outcome: string }>(
      `SELECT source_id AS "sourceId", source_updated_at AS "updatedAt", outcome FROM import_events_v1 WHERE run_id = $1 ORDER BY seq`,
      [runId],
    );
    expect(audit.rows.map((row) => ({ sourceId: row.sourceId, updatedAt: row.updatedAt?.toISOString() ?? null }))).toEqual(expected);
    expect(audit.rows.every((row) => row.outcome === 'imported')).toBe(true);

    // The event still says what the source sent.
    const [stored] = await db.store.readStream('contact-crm.c0');
    expect((stored.data as { sourceUpdatedAt: string }).sourceUpdatedAt).toBe('0000-01-01T00:00:00Z');

    for (const model of models) expect((await verifyReadModel(db.store, db.pool, model)).differences).toEqual([]);
    const switched = await rebuildReadModels({ store: db.store, pool: db.pool, models });
    expect(switched.map((result) => result.to)).toEqual([2, 2]);
    for (const model of models) expect((await verifyReadModel(db.store, db.pool, model)).differences).toEqual([]);
  });
});
