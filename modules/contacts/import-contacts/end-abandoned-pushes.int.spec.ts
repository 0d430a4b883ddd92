/**
 * Push runs on a real database, as requests leave them: a request without an Idempotency-Key killed
 * mid-batch (its claim and part of its answers recorded, then nothing) is ended by the worker's sweep
 * once silent for longer than the lease and the margin, and sync_runs and support_jobs show it failed
 * with the reason and the counts it recorded; a run with a key is left for a retry to take over; a
 * request still alive that appends between the sweep's read and its append keeps its run.
 */
import { randomUUID } from 'node:crypto';
import { supportJobsReadModel } from '../../../projections/support-jobs/support-jobs.projector';
import { syncRunsReadModel } from '../../../projections/sync-runs/sync-runs.projector';
import { runningPushRuns } from '../../../projections/sync-runs/sync-runs.queries';
import { appendLinked } from '../../../src/command-handling/append-linked';
import { toEventToAppend } from '../../../src/command-handling/event-to-append';
import type { EventStore } from '../../../src/event-store/event-store.port';
import { readModelProjection } from '../../../src/subscriptions/read-models/read-model.projection';
import { startProjections, type RunningProjections } from '../../../src/subscriptions/start-projections';
import { createProjectionDatabase, waitUntilCaughtUp, type ProjectionDatabase } from '../../../test/projections/projection-harness';
import { importStream } from '../contact.events';
import { PUSH_ABANDONED_AFTER_MS } from './abandon-push.decision';
import { endAbandonedPushes } from './end-abandoned-pushes';
import { parseImportRequest } from './import-request';
import { pushBatch } from './push-batch';
import { pushClaim, pushRunId } from './push-run';

jest.setTimeout(120_000);

const metadata = { correlationId: 'test', causationId: 'test', actor: { role: 'sync', tokenId: 'test' } };
const worker = { store: undefined as unknown as EventStore, metadata: { ...metadata, actor: { role: 'worker', tokenId: 'w' } } };
const readModels = [syncRunsReadModel, supportJobsReadModel];

let db: ProjectionDatabase;
let projections: RunningProjections;
beforeAll(async () => {
  db = await createProjectionDatabase('push_abandon');
  worker.store = db.store;
  projections = await startProjections({ store: db.store, pool: db.pool, readModels, reactors: [] });
});
afterAll(async () => {
  await projections?.stop();
  await db?.close();
});

const batch = (n: number) => {
  const prefix = randomUUID().slice(0, 8);
  return parseImportRequest({
    source: 'crm',
    records: Array.from({ length: n }, (_, i) => ({ sourceId: `${prefix}-${i}`, version: 1, fields: { i } })),
  });
};
const later = () => new Date(Date.now() + PUSH_ABANDONED_AFTER_MS + 1_000);
const caughtUp = () => waitUntilCaughtUp(db.store, db.pool, readModels.map(readModelProjection));
const syncRun = async (runId: string) => (await db.pool.query(`SELECT * FROM sync_runs WHERE run_id = $1`, [runId])).rows[0];
const supportJob = async (runId: string) =>
  (await db.pool.query(`SELECT * FROM support_jobs WHERE job_id = $1`, [`import-run:${runId}`])).rows[0];
const recordsIn = async (runId: string) =>
  (await db.store.readStream(importStream(runId))).filter((e) => e.type === 'ImportRecordProcessed').length;

/**
 * The store as a request's process sees it, with small appends (a run's answers go in several) and
 * `beforeImportAppend` called before each append to an import stream: it may kill the process there.
 */
function storeOfRequest(beforeImportAppend: (n: number) => Promise<void>): EventStore {
  let n = 0;
  return new Proxy(db.store, {
    get(target, prop) {
      if (prop === 'maxAppendBytes') return 3_000;
      if (prop === 'append')
        return async (...args: Parameters<EventStore['append']>) => {
          if (args[0].startsWith('import-')) await beforeImportAppend(++n);
          return target.append(...args);
        };
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** A request killed at its third import append: its claim and its first chunk of answers are recorded. */
async function killedMidBatch(runId: string, keyed: boolean, records = 20): Promise<void> {
  const dying = storeOfRequest(async (n) => {
    if (n >= 3) throw new Error('process killed');
  });
  await expect(pushBatch(dying, batch(records), { runId, keyed }, metadata)).rejects.toThrow('process killed');
}

describe('the sweep of abandoned push runs', () => {
  const keyless = `push.${randomUUID()}`;
  const keyed = pushRunId('test', randomUUID());
  const legacy = `push.${randomUUID()}`;
  let answered = 0;

  beforeAll(async () => {
    await killedMidBatch(keyless, false);
    await killedMidBatch(keyed, true);
    answered = await recordsIn(keyless);
    // A keyless run claimed before the claim said whether the request had a key: its run id tells.
    const { fingerprint } = batch(3);
    const stream = importStream(legacy);
    const claim = toEventToAppend(
      stream,
      { event: pushClaim(legacy, 'crm', 'sync', fingerprint), key: 'died/claim' },
      metadata,
      new Date().toISOString(),
    );
    await appendLinked(db.store, stream, [claim], 'no_stream');
    await caughtUp();
  });

  it('finds the runs left running in the read model, and ends none while the lease and the margin may still let it be written', async () => {
    expect(answered).toBeGreaterThan(0);
    expect(answered).toBeLessThan(20);
    expect((await syncRun(keyless)).status).toBe('running');
    expect((await supportJob(keyless)).status).toBe('pending');
    expect(await runningPushRuns(db.pool)).toEqual(expect.arrayContaining([keyless, keyed, legacy]));
    expect(await endAbandonedPushes(worker, await runningPushRuns(db.pool), new Date())).toEqual([]);
  });

  it('ends the keyless runs once silent for longer, failed with the reason and the counts they recorded, and leaves the run with a key', async () => {
    const ended = await endAbandonedPushes(worker, await runningPushRuns(db.pool), later());
    expect(ended.sort()).toEqual([keyless, legacy].sort());
    await caughtUp();

    const run = await syncRun(keyless);
    expect(run).toMatchObject({ kind: 'push', status: 'failed', processed: answered, imported: answered });
    expect(run.reason).toBe(
      `abandoned: the request that pushed this batch stopped after ${answered} of 20 records were answered and had no ` +
        'Idempotency-Key, so no retry can take it over; records it wrote are in their contact streams; send the ' +
        'batch again to have every record answered and audited',
    );
    expect(await supportJob(keyless)).toMatchObject({ status: 'failed', last_error: run.reason });
    expect(await syncRun(legacy)).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/stopped after 0 records were answered/),
    });

    expect(await syncRun(keyed)).toMatchObject({ status: 'running' });
    expect(await supportJob(keyed)).toMatchObject({ status: 'pending' });
    expect(await runningPushRuns(db.pool)).toEqual([keyed]);
    // Sweeping again appends nothing: the ended runs are judged ended on their streams.
    expect(await endAbandonedPushes(worker, [keyless, legacy, keyed], later())).toEqual([]);
    expect((await db.store.readStream(importStream(keyless))).filter((e) => e.type === 'ImportRunFailed')).toHaveLength(1);
  });
});

/**
 * A keyless request of five records that has claimed its run and imported its records, held before it
 * appends its answers until `openGate()`.
 */
async function requestHeldBeforeItsAnswers(runId: string) {
  let openGate!: () => void;
  const gate = new Promise<void>((resolve) => (openGate = resolve));
  let judged!: () => void;
  const claimed = new Promise<void>((resolve) => (judged = resolve));
  const request = pushBatch(
    storeOfRequest(async (n) => {
      if (n === 2) {
        judged();
        await gate;
      }
    }),
    batch(5),
    { runId, keyed: false },
    metadata,
  );
  await claimed;
  return { request, openGate };
}

describe('a request still alive when the sweep judges its run abandoned', () => {
  it('keeps its run: its answers are appended first, the sweep loses its append and leaves the run completed', async () => {
    const runId = `push.${randomUUID()}`;
    const { request, openGate } = await requestHeldBeforeItsAnswers(runId);
    // The sweep reads the run (the claim alone), then the request appends its answers, then the sweep appends.
    const sweepStore = new Proxy(db.store, {
      get(target, prop) {
        if (prop === 'readStream')
          return async (...args: Parameters<EventStore['readStream']>) => {
            const events = await target.readStream(...args);
            if (args[0] === importStream(runId)) {
              openGate();
              await request;
            }
            return events;
          };
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    expect(await endAbandonedPushes({ ...worker, store: sweepStore }, [runId], later())).toEqual([]);
    expect((await request).answers.map((a) => a.outcome)).toEqual(Array(5).fill('imported'));
    await caughtUp();
    expect(await syncRun(runId)).toMatchObject({ status: 'completed', processed: 5, reason: null });
  });
});

describe('a request without a key whose run the sweep ended before its answers', () => {
  it('is refused with 409 IMPORT.RUN_ABANDONED, and the run stays failed with the sweep’s reason', async () => {
    const runId = `push.${randomUUID()}`;
    const { request, openGate } = await requestHeldBeforeItsAnswers(runId);
    expect(await endAbandonedPushes(worker, [runId], later())).toEqual([runId]);
    openGate();
    await expect(request).rejects.toMatchObject({ kind: 'conflict', code: 'IMPORT.RUN_ABANDONED' });
    await caughtUp();
    expect(await syncRun(runId)).toMatchObject({
      status: 'failed',
      processed: 0,
      reason: expect.stringMatching(/^abandoned: .* after 0 of 5 records/),
    });
  });
});
