/**
 * Blue/green rebuild while the service runs, with each store as the source: the live runners keep
 * projecting, writers keep appending, readers keep reading the views. The rebuild builds version 2
 * of every read model, switches readers, and the live runners follow to version 2. No reader ever
 * sees an empty table or fewer rows than it saw before, and every read model verifies clean.
 */
import { Pool } from 'pg';
import type { EventStore } from '../../src/event-store/event-store.port';
import { EsdbEventStore } from '../../src/event-store/esdb/esdb.event-store';
import { readVersions } from '../../src/subscriptions/checkpoint-store';
import { rebuildReadModels } from '../../src/subscriptions/read-models/rebuild';
import { verifyReadModel } from '../../src/subscriptions/read-models/verify';
import { dropOldVersions } from '../../src/subscriptions/read-models/versions';
import { startProjections, type RunningProjections } from '../../src/subscriptions/start-projections';
import { READ_MODELS, REACTORS } from '../harness/projection-catalogue';
import { startEsdbEmulator, type EsdbEmulator } from '../esdb-emulator';
import { LiveWriter } from './live-writer';
import { createProjectionDatabase, waitFor, waitUntilCaughtUp, type ProjectionDatabase } from './projection-harness';

const VIEWS = READ_MODELS.map((m) => m.name);

interface Source {
  store: EventStore;
  /**
   * Events appended before the rebuild, and the writers' pace during it. The emulator serves gRPC
   * from this very process, so it gets a lighter load: it proves the source works, not its speed.
   */
  history: number;
  appendsPerSecond?: number;
  close(): Promise<void>;
}

const sources: Array<[string, (db: ProjectionDatabase) => Promise<Source>]> = [
  ['PostgreSQL', async (db) => ({ store: db.store, history: 800, close: async () => undefined })],
  [
    'EventStoreDB (protocol emulator)',
    async () => {
      const emulator: EsdbEmulator = await startEsdbEmulator();
      const store = EsdbEventStore.connect(emulator.connectionString);
      return {
        store,
        history: 200,
        appendsPerSecond: 30,
        close: async () => {
          await store.close();
          await emulator.close();
        },
      };
    },
  ],
];

describe.each(sources)('Rebuild under live writes, source %s', (_label, openSource) => {
  let db: ProjectionDatabase;
  let source: Source;
  let running: RunningProjections | undefined;
  let readers: Pool;

  beforeAll(async () => {
    db = await createProjectionDatabase('rebuild');
    source = await openSource(db);
    readers = new Pool({ connectionString: db.url, max: 2 });
  });
  afterAll(async () => {
    await running?.stop();
    await readers.end();
    await source.close();
    await db.close();
  });

  it('switches every read model to version 2 with no lost event and no empty or older view', async () => {
    const { store } = source;
    const writer = new LiveWriter(store, 11, { concurrency: 2, appendsPerSecond: source.appendsPerSecond });
    await writer.appendCount(source.history);
    running = await startProjections({ store, pool: db.pool, readModels: READ_MODELS, reactors: REACTORS });
    await waitUntilCaughtUp(store, db.pool, running.projections);
    // The claim is about the switch: every view must already serve rows before the rebuild starts.
    // A short history may not have reached every event kind yet (the import runs' records come late
    // in their streams), so the live writes go on until each view has rows.
    writer.start();
    await waitFor(
      'every view to serve rows before the rebuild',
      async () => {
        const { rows } = await readers.query(`SELECT ${VIEWS.map((v) => `(SELECT count(*)::int FROM ${v}) AS ${v}`).join(', ')}`);
        return VIEWS.every((view) => (rows[0][view] as number) > 0);
      },
      90_000,
    );
    const observations = observeViews(readers);
    const results = await rebuildReadModels({ store, pool: db.pool, models: READ_MODELS });
    await waitFor('live runners to follow the switch', async () =>
      running!.statuses.filter((s) => VIEWS.includes(s.name)).every((s) => s.state === 'active' && s.version === 2),
    );
    await writer.stop();
    const seen = await observations.stop();
    await waitUntilCaughtUp(store, db.pool, running.projections);

    expect(results.map((r) => [r.from, r.to])).toEqual(VIEWS.map(() => [1, 2]));
    expect(seen.reads).toBeGreaterThan(5);
    expect(seen.problems).toEqual([]);
    const versions = await readVersions(db.pool);
    expect(
      versions
        .filter((v) => v.kind === 'read_model')
        .map((v) => `${v.name}@${v.version}:${v.state}`)
        .sort(),
    ).toEqual(VIEWS.flatMap((name) => [`${name}@1:retired`, `${name}@2:live`]).sort());
    for (const model of READ_MODELS) {
      expect({ model: model.name, differences: (await verifyReadModel(store, db.pool, model)).differences }).toEqual({
        model: model.name,
        differences: [],
      });
    }

    for (const model of READ_MODELS) expect(await dropOldVersions(db.pool, model)).toEqual([1]);
    const { rows } = await db.pool.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE '%\\_v1'`);
    expect(rows[0].n).toBe(0);
  }, 180_000);
});

/** Reads every view's row count in one snapshot, as fast as it can, until stopped. */
function observeViews(pool: Pool) {
  const problems: string[] = [];
  let reads = 0;
  let stopped = false;
  const last = new Map<string, number>();
  const loop = (async () => {
    while (!stopped) {
      const { rows } = await pool.query(`SELECT ${VIEWS.map((v) => `(SELECT count(*)::int FROM ${v}) AS ${v}`).join(', ')}`);
      reads++;
      for (const view of VIEWS) {
        const count = rows[0][view] as number;
        if (count === 0) problems.push(`${view} read empty`);
        if (count < (last.get(view) ?? 0)) problems.push(`${view} went back from ${last.get(view)} to ${count} rows`);
        last.set(view, count);
      }
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      return { reads, problems };
    },
  };
}
