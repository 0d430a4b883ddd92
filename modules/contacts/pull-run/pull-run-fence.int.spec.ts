/**
 * One live driver per pull run, on both event stores (the run's lock lives in PostgreSQL either way:
 * run-lock.ts), with real processes (drive-run.process.ts):
 * - a run a live process drives is not driven by a second driver process, nor by a starting worker;
 * - a driver frozen (SIGSTOP) past its lock's silence limit loses the run to another driver, and once
 *   woken (SIGCONT) with a fetched page in hand writes nothing: no contact, no page record.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'pg';
import { EsdbEventStore } from '../../../src/event-store/esdb/esdb.event-store';
import type { EventStore } from '../../../src/event-store/event-store.port';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import { startEsdbEmulator, type EsdbEmulator } from '../../../test/esdb-emulator';
import { createTestDatabase } from '../../../test/harness/test-database';
import { waitUntilSettled } from '../../../test/harness/settled-history';
import { waitFor } from '../../../test/projections/projection-harness';
import { createSandbox, type Sandbox } from '../../sandbox';
import { importStream } from '../contact.events';
import { contactSourcesAt } from '../contact-source/configured-sources';
import { driveRun, isDrivenHere, loadRun, type RunDriverDeps } from './drive-run';
import { resumeUnfinishedRuns } from './resume-runs';
import { RunDrivenElsewhere, runLocksOn, type RunLocks } from './run-lock';
import { startRun } from './start-run';

const ROOT = join(__dirname, '..', '..', '..');
const SIZE = 600;
const PAGE_SIZE = 100;
/**
 * The frozen driver's lock silence limit: short, so that it loses its run within the test. Only that
 * driver has it, and it writes nothing under it before it freezes; a driver that must keep its run keeps
 * the default (DEFAULT_RUN_SILENCE_MS). With 1.5 s for every driver, on a busy machine (two CPU hogs
 * beside the spec) a live driver's lock session took more than half the limit to answer the touch before
 * its first append, and the driver rightly stopped as one that could not prove it held the run
 * (RunNotHeld, "answered only after 750 ms"; `done`, `running`, processed 0): 4 runs of 15 failed so.
 */
const SILENT_FOR_MS = 3_000;
const metadata = { correlationId: 'test', causationId: 'test', actor: { role: 'sync', tokenId: 'test' } };

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createSandbox({ crm: { seed: 41, size: SIZE } });
});
afterAll(() => sandbox.close());

type Line = { event: string; [k: string]: unknown };

/** A driver process; `lines` yields its reports in order, `exited` settles when it exits. */
function driverProcess(env: Record<string, string>) {
  const child = spawn(process.execPath, ['-r', join(ROOT, 'bench', 'lib', 'register.js'), join(__dirname, 'drive-run.process.ts')], {
    cwd: ROOT,
    env: { ...process.env, CRM_URL: sandbox.url, PAGE_SIZE: String(PAGE_SIZE), ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const reports = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const seen: Line[] = [];
  const next = async (): Promise<Line> => {
    const { value, done } = await reports.next();
    if (done) throw new Error(`the driver exited after ${JSON.stringify(seen)}`);
    seen.push(JSON.parse(String(value)) as Line);
    return seen.at(-1)!;
  };
  const until = async (event: string): Promise<Line> => {
    for (;;) {
      const line = await next();
      if (line.event === event) return line;
      if (line.event === 'error') throw new Error(`the driver failed: ${String(line.error)}`);
    }
  };
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, next, until, exited, seen };
}

describe.each(['postgres', 'esdb'] as const)('a pull run on %s', (kind) => {
  let databaseUrl: string;
  let pool: Pool;
  let store: EventStore;
  let emulator: EsdbEmulator | undefined;
  let locks: RunLocks;
  let children: ChildProcess[] = [];

  beforeEach(async () => {
    databaseUrl = await createTestDatabase(`contacts_pull_fence_${kind}`);
    pool = new Pool({ connectionString: databaseUrl, max: 4 });
    locks = runLocksOn(pool);
    if (kind === 'esdb') {
      emulator = await startEsdbEmulator();
      store = EsdbEventStore.connect(emulator.connectionString);
    } else {
      const postgres = new PostgresEventStore(pool);
      await postgres.migrate();
      store = postgres;
    }
  });
  afterEach(async () => {
    for (const child of children) {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
    }
    children = [];
    if (kind === 'esdb') await store.close();
    await emulator?.close();
    await pool.end();
  });

  const storeEnv = () => ({ DATABASE_URL: databaseUrl, ...(emulator ? { ESDB_URL: emulator.connectionString } : {}) });
  const driver = (runId: string, env: Record<string, string> = {}) => {
    const started = driverProcess({ ...storeEnv(), RUN_ID: runId, ...env });
    children.push(started.child);
    return started;
  };
  const pull = () => startRun(store, { source: 'crm', startedBy: 'test', kind: 'pull' }, metadata);
  /** Events per contact stream, and how many events the run's stream holds. */
  async function written(runId: string) {
    // On PostgreSQL readAll reads only below the oldest transaction in flight anywhere in the cluster,
    // which other test files share: a loaded CI run read 500 and 400 of a completed run's 600 contacts.
    if (kind === 'postgres') await waitUntilSettled(pool);
    const perContact = new Map<string, number>();
    for (let after: Awaited<ReturnType<EventStore['readAll']>>[number]['position'] | undefined; ;) {
      const events = await store.readAll({ after, maxCount: 5000, filter: { streamCategories: ['contact'] } });
      events.forEach((e) => perContact.set(e.stream, (perContact.get(e.stream) ?? 0) + 1));
      if (events.length < 5000) break;
      after = events.at(-1)!.position;
    }
    const contactEvents = [...perContact.values()].reduce((sum, n) => sum + n, 0);
    return { contacts: perContact.size, contactEvents, runEvents: (await store.readStream(importStream(runId))).length };
  }
  /**
   * A run of its own and a driver process holding it at `page`, fetched and nothing of it imported, once
   * the pages before it are recorded (the last one's record may still be in flight when it says `holding`).
   */
  async function heldAt(page: number) {
    const runId = await pull();
    const holder = driver(runId, { HOLD_AT_PAGE: String(page) });
    await holder.until('holding');
    await waitFor(`the run to record ${page - 1} pages`, async () => (await loadRun(store, runId)).pages === page - 1);
    return { runId, holder };
  }
  const deps = (): RunDriverDeps => ({ store, sources: contactSourcesAt(sandbox.url), pageSize: PAGE_SIZE, backoffMs: 5, metadata, locks });

  describe('driven by a live process', () => {
    it('is not driven by a second driver process, which says who drives it and writes nothing', async () => {
      const { runId, holder: first } = await heldAt(2);
      const before = await written(runId);

      const second = driver(runId);
      expect(await second.until('elsewhere')).toEqual({
        event: 'elsewhere',
        by: expect.stringMatching(new RegExp(` pid ${first.child.pid}$`)),
      });
      expect(await second.exited).toBe(0);
      expect(await written(runId)).toEqual(before);

      first.child.stdin!.write('go\n');
      expect(await first.until('done')).toEqual({ event: 'done', status: 'completed', processed: SIZE });
      expect(await written(runId)).toMatchObject({ contacts: SIZE, contactEvents: SIZE });
      expect(await loadRun(store, runId)).toMatchObject({ status: 'completed', pages: SIZE / PAGE_SIZE, counts: { imported: SIZE } });
    }, 60_000);

    it('is left to that process by a worker starting meanwhile, which takes it over once that process is killed', async () => {
      const { runId, holder: first } = await heldAt(2);

      const worker = await resumeUnfinishedRuns({ ...deps(), locks }, { everyMs: 100 });
      try {
        // A starting worker decides which runs it drives before it answers: not this one, which it only
        // waits for (driveWhenFreed), the run's lock still the first process's.
        expect(isDrivenHere(runId)).toBe(false);
        expect((await locks.holder(runId))?.by).toMatch(new RegExp(` pid ${first.child.pid}$`));
        first.child.kill('SIGKILL');
        await first.exited;
        await waitFor(
          'the worker to take the run over and complete it',
          async () => (await loadRun(store, runId)).status === 'completed',
          30_000,
        );
      } finally {
        await worker.stop();
      }
      expect(await written(runId)).toMatchObject({ contacts: SIZE, contactEvents: SIZE });
      expect(await loadRun(store, runId)).toMatchObject({ pages: SIZE / PAGE_SIZE, processed: SIZE, counts: { imported: SIZE } });
    }, 60_000);
  });

  describe('whose driver froze (SIGSTOP) past its lock silence limit', () => {
    /**
     * A run with two pages recorded, and a driver process with the short silence limit holding it, its
     * third page fetched and nothing of it imported. The pages before are driven by a driver with the
     * default limit, killed (which frees the run at once): the frozen driver then has no page to write
     * under its short limit before it freezes, where a busy machine could make it lose the run early.
     */
    async function frozenAt3() {
      const { runId, holder: first } = await heldAt(3);
      first.child.kill('SIGKILL');
      await first.exited;
      await waitFor('the killed driver to free the run', async () => (await locks.holder(runId)) === undefined);
      const frozen = driver(runId, { HOLD_AT_PAGE: '1', SILENT_FOR_MS: String(SILENT_FOR_MS) });
      await frozen.until('holding');
      // It holds the run as it freezes: another driver gets it only once its lock session has ended.
      expect((await locks.holder(runId))?.by).toMatch(new RegExp(` pid ${frozen.child.pid}$`));
      frozen.child.kill('SIGSTOP');
      return { runId, frozen };
    }

    it('is taken over by another driver, and the woken driver writes nothing of the page it had fetched', async () => {
      const { runId, frozen } = await frozenAt3();

      // The taker: a driver here, asking until the run is free, that holds on the page the frozen one fetched.
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let reached: () => void = () => undefined;
      const holding = new Promise<void>((resolve) => (reached = resolve));
      const taking = (async () => {
        for (;;) {
          try {
            return await driveRun({ ...deps(), beforeImportingPage: () => (reached(), gate) }, runId);
          } catch (error) {
            if (!(error instanceof RunDrivenElsewhere)) throw error;
            await sleep(50); // asking again: the run is not free yet
          }
        }
      })();
      await Promise.race([holding, taking]);
      const atTakeover = await written(runId);
      expect(atTakeover).toMatchObject({ contacts: 2 * PAGE_SIZE, contactEvents: 2 * PAGE_SIZE });

      frozen.child.kill('SIGCONT');
      frozen.child.stdin!.write('go\n');
      // It stops as a driver that lost the run does, reporting the run as the store holds it.
      expect(await frozen.until('done')).toMatchObject({ event: 'done', status: 'running', processed: 2 * PAGE_SIZE });
      expect(await frozen.exited).toBe(0);
      expect(await written(runId)).toEqual(atTakeover);

      release();
      expect(await taking).toMatchObject({ status: 'completed', processed: SIZE });
      expect(await written(runId)).toMatchObject({ contacts: SIZE, contactEvents: SIZE });
      expect(await loadRun(store, runId)).toMatchObject({ pages: SIZE / PAGE_SIZE, counts: { imported: SIZE } });
    }, 60_000);
  });
});
