/**
 * The seals as history, on real PostgreSQL: the projector queues their publication in the transaction
 * that records them, `publishSeals` appends them to `seal-ledger` in order and once, their events are
 * chained and sealed in turn, and `verify` and `verify-file` hold every published seal against the
 * digest recomputed at its place — so rebuilding the chain tables after an edit no longer hides it.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from 'graphile-worker';
import { readSeals } from '../../../projections/audit-chain/audit-chain.queries';
import { startJobWorker } from '../../../src/jobs/job-worker';
import { waitUntil } from '../../../test/harness/wait-until';
import type { ProjectionDatabase } from '../../../test/projections/projection-harness';
import { chainedHistory, EVENT_COUNT, firstBreak, idem, linkChain, settled, tamper } from '../../../test/harness/audit-history';
import { compareCheckpoints, type Checkpoint } from '../../../src/event-store/checkpoint';
import { SEAL_STREAM } from '../ledger-sealed.events';
import type { VerifyReport } from '../verify-history/chain-break';
import { checkLinksOf } from '../verify-history/check-links';
import { verifyHistory } from '../verify-history/verify-history';
import { PUBLISH_SEALS_JOB_KEY, PUBLISH_SEALS_TASK } from './publish-seals.payload';
import { publishSeals, publishSealsTask } from './publish-seals';

const SEAL_EVERY = 4;
/** 11 events seal at 4 and 8; those two seals' events (12, 13) seal at 12; that seal's event is 14. */
const SEALED_AT = [4, 8, 12];
const CHAINED = EVENT_COUNT + SEALED_AT.length;

const publish = (db: ProjectionDatabase) => publishSeals({ store: db.store, pool: db.pool, workerId: 'spec' });

/** Publishes and chains until no seal is left unpublished. */
async function publishAndChain(db: ProjectionDatabase): Promise<void> {
  while ((await publish(db)) > 0) {
    await settled(db.store, SEAL_STREAM);
    await linkChain(db, SEAL_EVERY);
  }
}

/** Exports the history to a scratch file and hands it to `check`; the export exits 1 when its own lines do not verify. */
async function withExport(db: ProjectionDatabase, check: (file: string) => Promise<void>, exitCode = 0): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'idem-seals-'));
  try {
    const file = join(dir, 'history.ndjson');
    expect((await idem(db, 'audit', 'export', file)).code).toBe(exitCode);
    await check(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('publishing the seals to seal-ledger', () => {
  let db: ProjectionDatabase;
  beforeEach(async () => {
    db = await chainedHistory('audit_seal_ledger', SEAL_EVERY);
  });
  afterEach(() => db.close());

  it('is queued by the projector in the transaction that records a seal', async () => {
    const { rows } = await db.pool.query(`SELECT count(*)::int AS jobs FROM graphile_worker._private_jobs WHERE key = $1`, [
      PUBLISH_SEALS_JOB_KEY,
    ]);
    expect(rows[0].jobs).toBe(1);
  });

  it('appends every recorded seal once, in order, linked, and its events are chained and sealed in turn', async () => {
    await publishAndChain(db);
    const published = await db.store.readStream(SEAL_STREAM);
    expect(published.map((event) => [event.revision, event.type])).toEqual(SEALED_AT.map((_, i) => [i, 'LedgerSealed']));
    const seals = await readSeals(db.pool, CHAINED);
    expect(seals.map((seal) => seal.eventsSealed)).toEqual(SEALED_AT);
    expect(published.map((event) => event.data)).toEqual(seals);
    expect(checkLinksOf(SEAL_STREAM, published)).toEqual({ checked: SEALED_AT.length, unlinked: 0 });

    expect(await publish(db)).toBe(0);
    expect(await db.store.readStream(SEAL_STREAM)).toHaveLength(SEALED_AT.length);
    expect(await verifyHistory(db)).toMatchObject({ ok: true, checked: CHAINED, sealsChecked: 2 * SEALED_AT.length, unchained: 0 });
  });

  it('logs one line at info per run of the job, as every job does, and what it published at debug', async () => {
    const logged: Array<[string, string]> = [];
    const worker = await startJobWorker({
      pool: db.pool,
      concurrency: 1,
      pollIntervalMs: 100,
      logger: new Logger(() => (level, message) => logged.push([level, message])),
      taskList: { [PUBLISH_SEALS_TASK]: publishSealsTask({ store: db.store, pool: db.pool, workerId: 'spec' }) },
    });
    try {
      await waitUntil(
        () => db.store.readStream(SEAL_STREAM),
        (published) => published.length === 2,
        10_000,
      );
      await waitUntil(
        async () => logged.filter(([, message]) => /Completed task/.test(message)).length,
        (runs) => runs === 1,
        10_000,
      );
    } finally {
      await worker.stop();
    }
    // Besides the worker's own start line, which names its tasks.
    const aboutSeals = logged.filter(([level, message]) => level === 'info' && /seal/.test(message) && !/looking for jobs/.test(message));
    expect(aboutSeals.map(([, message]) => message)).toEqual([expect.stringMatching(/^Completed task \d+ \(publish-ledger-seals, /)]);
    expect(logged).toContainEqual(['debug', `published 2 seal(s) to ${SEAL_STREAM}`]);
  });

  it('lets two publishers race without doubling a seal', async () => {
    await Promise.all([publish(db), publish(db), publish(db)]);
    const published = await db.store.readStream(SEAL_STREAM);
    expect(published.map((event) => (event.data as { eventsSealed: number }).eventsSealed)).toEqual([4, 8]);
  });

  it('is exported with the history, and the export verifies offline against every published seal', async () => {
    await publishAndChain(db);
    await withExport(db, async (file) => {
      const lines = (await readFile(file, 'utf8'))
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines.filter((line) => line.kind === 'event' && line.stream === SEAL_STREAM)).toHaveLength(SEALED_AT.length);
      const verify = await idem(db, 'audit', 'verify-file', file);
      expect(verify.code).toBe(0);
      expect(JSON.parse(verify.out)).toMatchObject({ ok: true, checked: CHAINED, sealsChecked: 2 * SEALED_AT.length });
    });
  });

  it('catches an event rewritten before a published seal even when the chain tables were rebuilt to match', async () => {
    await publishAndChain(db);
    await tamper.rewriteData(db, 'order-b', 1); // event 3, sealed at 4 and published as seal-ledger@0
    await tamper.rechain(db, SEAL_EVERY);
    const report = await verifyHistory(db);
    expect(report).toMatchObject({ ...firstBreak('seal_mismatch', 'order-a', 1), checked: 4, sealsChecked: 1 });
    const [sealedAt4] = await db.store.readStream(SEAL_STREAM);
    expect(report.firstBreak?.expected).toBe((sealedAt4.data as { digest: string }).digest);

    await withExport(
      db,
      async (file) => {
        const verify = await idem(db, 'audit', 'verify-file', file);
        expect(verify.code).toBe(1);
        expect(JSON.parse(verify.out)).toMatchObject(firstBreak('seal_mismatch', SEAL_STREAM, 0));
      },
      1,
    );
  });

  it('names a published seal whose row was removed from audit_seals missing, in verify, in the export and offline', async () => {
    // Found black-box: verify answered ok (the row's seal is published and matches), while the export,
    // which writes its seal lines from audit_seals, exited 1 blaming the history: "seal-ledger@1 seals
    // 8 events with a digest the history up to there does not give" — and sent the auditor to verify.
    await publishAndChain(db);
    await db.pool.query(
      `ALTER TABLE audit_seals DISABLE TRIGGER USER; DELETE FROM audit_seals WHERE events_sealed = 8; ALTER TABLE audit_seals ENABLE TRIGGER USER`,
    );
    const published = (await db.store.readStream(SEAL_STREAM))[1].data as { eventsSealed: number; digest: string };
    expect(published.eventsSealed).toBe(8);

    const report = await verifyHistory(db);
    expect(report).toMatchObject({ ok: false, checked: 8 });
    expect(report.firstBreak).toMatchObject({
      kind: 'missing',
      expected: published.digest,
      actual: null,
      detail: `the seal after event 8, published as ${SEAL_STREAM}@1, is gone from audit_seals: seal rows were removed (the history up to it matches the published seal)`,
    });

    await withExport(
      db,
      async (file) => {
        const verify = await idem(db, 'audit', 'verify-file', file);
        expect(verify.code).toBe(1);
        const offline = JSON.parse(verify.out) as VerifyReport;
        expect(offline).toMatchObject(firstBreak('missing', SEAL_STREAM, 1));
        expect(offline.firstBreak?.detail).toBe(
          `${SEAL_STREAM}@1 publishes the seal after event 8, which has no seal line in the file: ` +
            'the line was removed, or the seal row it is written from (audit_seals)',
        );
      },
      1,
    );
  });

  it('catches the sealed event moved to another position between its neighbours, seal line and all, at its published seal', async () => {
    await publishAndChain(db);
    await withExport(db, async (file) => {
      const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
      const events = lines.map(
        (line) => JSON.parse(line) as { kind: string; eventNumber?: number; eventsSealed?: number; position: string },
      );
      const [before, sealed] = [3, 4].map((n) => events.find((line) => line.kind === 'event' && line.eventNumber === n)!.position);
      // Still rising (so the order check passes) and still matched by the seal line: only seal-ledger@0 knows better.
      const [major, minor] = sealed.split('/').map(BigInt);
      const moved = [`${major}/${minor - 1n}`, `${before.split('/')[0]}/${BigInt(before.split('/')[1]) + 1n}`].find(
        (position) => compareCheckpoints(position as Checkpoint, before as Checkpoint) > 0 && position !== sealed,
      )!;
      expect(compareCheckpoints(moved as Checkpoint, sealed as Checkpoint)).toBeLessThan(0);
      const edited = events.map((line) =>
        (line.kind === 'event' && line.eventNumber === 4) || (line.kind === 'seal' && line.eventsSealed === 4)
          ? { ...line, position: moved }
          : line,
      );
      await writeFile(file, `${edited.map((line) => JSON.stringify(line)).join('\n')}\n`);
      const verify = await idem(db, 'audit', 'verify-file', file);
      expect(verify.code).toBe(1);
      const report = JSON.parse(verify.out) as VerifyReport;
      expect(report).toMatchObject(firstBreak('seal_mismatch', SEAL_STREAM, 0));
      expect(report.firstBreak?.detail).toBe(`${SEAL_STREAM}@0 seals event 4 at position ${sealed}, the file puts it at ${moved}`);
    });
  });
});
