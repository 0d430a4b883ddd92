/**
 * A rebuild writes the rows it creates with COPY, the live runner with an upsert of JSON tuples.
 * Both must store exactly the same values, including text that COPY's format treats specially
 * (backslash, tab, newline, carriage return, a literal `\N`), non-ASCII text, nested JSON and NULLs.
 */
import { randomUUID } from 'node:crypto';
import { contactsReadModel } from '../../projections/contacts/contacts.projector';
import { readModelProjection } from '../../src/subscriptions/read-models/read-model.projection';
import { rebuildReadModels } from '../../src/subscriptions/read-models/rebuild';
import { verifyReadModel } from '../../src/subscriptions/read-models/verify';
import { startProjections } from '../../src/subscriptions/start-projections';
import { createProjectionDatabase, waitUntilCaughtUp, type ProjectionDatabase } from './projection-harness';

const AWKWARD = ['back\\slash', 'tab\there', 'new\nline', 'carriage\rreturn', '\\N', '\\\\N\t\\', 'naïve — 東京 😀', '', ' '];

describe('Rows a rebuild creates with COPY', () => {
  let db: ProjectionDatabase;

  beforeAll(async () => {
    db = await createProjectionDatabase('rebuild_copy_values');
  });
  afterAll(async () => {
    await db.close();
  });

  it('hold exactly what the live runner stores for the same events', async () => {
    for (const [i, text] of AWKWARD.entries()) {
      const sourceId = `${text}#${i}`;
      await db.store.append(
        `contact-${randomUUID()}`,
        [
          {
            id: randomUUID(),
            type: 'ContactImported',
            data: {
              source: `crm\t${text}`,
              sourceId,
              sourceVersion: i + 1,
              sourceUpdatedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i, 7)).toISOString(),
              checksum: text,
              ...(i % 2 ? { sourceEventId: text } : {}),
              fields: { name: text, nested: { list: [text, null, 1.5, true] }, [text || 'empty']: 'key' },
            },
            metadata: {
              correlationId: randomUUID(),
              causationId: randomUUID(),
              actor: { role: 'importer', tokenId: 'test' },
              recordedAt: new Date(Date.UTC(2026, 0, 2, 0, 0, i, 123)).toISOString(),
            },
          },
        ],
        'no_stream',
      );
    }
    const running = await startProjections({ store: db.store, pool: db.pool, readModels: [contactsReadModel], reactors: [] });
    await waitUntilCaughtUp(db.store, db.pool, [readModelProjection(contactsReadModel)]);
    await running.stop();

    const [switched] = await rebuildReadModels({ store: db.store, pool: db.pool, models: [contactsReadModel] });
    expect(switched).toMatchObject({ from: 1, to: 2 });

    const { rows } = await db.pool.query(
      `SELECT (SELECT count(*) FROM contacts_v1)::int AS live,
              (SELECT count(*) FROM contacts_v2)::int AS rebuilt,
              (SELECT count(*) FROM (SELECT * FROM contacts_v1 EXCEPT SELECT * FROM contacts_v2) d)::int AS only_live,
              (SELECT count(*) FROM (SELECT * FROM contacts_v2 EXCEPT SELECT * FROM contacts_v1) d)::int AS only_rebuilt`,
    );
    expect(rows[0]).toEqual({ live: AWKWARD.length, rebuilt: AWKWARD.length, only_live: 0, only_rebuilt: 0 });
    expect((await verifyReadModel(db.store, db.pool, contactsReadModel)).differences).toEqual([]);
  });
});
