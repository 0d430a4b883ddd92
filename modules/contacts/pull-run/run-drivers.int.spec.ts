/**
 * Background drivers (RunDrivers: the api's runs started over HTTP, a worker's resumed ones) on real
 * PostgreSQL, pulling from a source of three pages held in memory. An error that driving the run again
 * cannot fix stops the run as needs_review with that error (it was retried every 30 s for ever); one
 * that may pass is retried; a run whose source is not configured here is left running, saying why once;
 * and a process holds one driver per run, across its RunDrivers and through a failed attempt's backoff.
 */
import { performance } from 'node:perf_hooks';
import { Logger } from '@nestjs/common';
import { Pool } from 'pg';
import { InvalidAppend, StreamDeleted } from '../../../src/event-store/errors';
import type { EventStore, EventToAppend } from '../../../src/event-store/event-store.port';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import { createTestDatabase } from '../../../test/harness/test-database';
import { waitFor } from '../../../test/projections/projection-harness';
import type { ContactPage, ContactSource, PageRequest } from '../contact-source/contact-source.port';
import { isDrivenHere, loadRun, type RunDriverDeps } from './drive-run';
import { orphanedRuns } from './resume-runs';
import { isLeftAlone, RunDrivers } from './run-drivers';
import { runLocksOn } from './run-lock';
import { startRun } from './start-run';

let pool: Pool;
let store: PostgresEventStore;
const metadata: RunDriverDeps['metadata'] = { correlationId: 'test', causationId: 'test', actor: { role: 'sync', tokenId: 'test' } };

beforeAll(async () => {
  pool = new Pool({ connectionString: await createTestDatabase('contacts_run_drivers'), max: 8 });
  store = new PostgresEventStore(pool);
  await store.migrate();
});
afterAll(async () => {
  await pool.end();
});

/** Three pages of two contacts each (cursors start, 2, 4), counting the fetches of each page; `hold` keeps the first fetch waiting. */
class ThreePages implements ContactSource {
  readonly name = 'crm';
  readonly fetches = new Map<string, number>();
  inFlight = 0;
  private release: () => void = () => undefined;
  private held: Promise<void> | undefined;

  constructor(private readonly tag: string) {}

  hold(): void {
    this.held = new Promise((resolve) => (this.release = resolve));
  }

  letGo(): void {
    this.release();
  }

  async fetchPage({ cursor }: PageRequest): Promise<ContactPage> {
    const key = cursor ?? 'start';
    this.fetches.set(key, (this.fetches.get(key) ?? 0) + 1);
    this.inFlight++;
    try {
      await this.held;
      const first = cursor === null ? 0 : Number(cursor);
      const records = [first, first + 1].map((i) => ({ sourceId: `${this.tag}-${i}`, version: 1, fields: { name: `n${i}` } }));
      return { records, nextCursor: first === 4 ? null : String(first + 2) };
    } finally {
      this.inFlight--;
    }
  }
}

/** The store, but `fail` may refuse an append with an error of its choice. */
function storeThatFails(fail: (stream: string, events: EventToAppend[]) => Error | undefined): EventStore {
  return {
    append: (stream, events, expected) => {
      const error = fail(stream, events);
      return error ? Promise.reject(error) : store.append(stream, events, expected);
    },
    readStream: (stream, options) => store.readStream(stream, options),
    readAll: (options) => store.readAll(options),
    subscribeToAll: (options) => store.subscribeToAll(options),
    ping: () => store.ping(),
    close: () => Promise.resolve(),
  };
}

const start = () => startRun(store, { source: 'crm', startedBy: 'test', kind: 'pull' }, metadata);
const driversOn = (runStore: EventStore, source: ContactSource | undefined) =>
  new RunDrivers({
    store: runStore,
    sources: (name) => (name === 'crm' ? source : undefined),
    pageSize: 2,
    backoffMs: 5,
    locks: runLocksOn(pool),
  });
const stoppedRun = (runId: string) =>
  waitFor('the run to stop', async () => {
    const run = await loadRun(store, runId);
    return run.status !== 'running' && run;
  });

describe('a pull run driven in the background', () => {
  describe('when driving it fails on an error that driving it again cannot fix', () => {
    it.each([
      // A contact's deleted stream is no such error: that record is answered rejected (pull-run-esdb-deleted.int.spec.ts).
      [
        "the run's page refused as its stream was deleted (StreamDeleted)",
        (stream: string, events: EventToAppend[]) =>
          events.some((event) => event.type === 'ImportPageFetched') ? new StreamDeleted(stream) : undefined,
        /cannot fix: Stream import-\S+ was deleted from the event store/,
      ],
      [
        "the run's page refused by the store (InvalidAppend)",
        (_: string, events: EventToAppend[]) =>
          events.some((event) => event.type === 'ImportPageFetched') ? new InvalidAppend('EVENT_DATA', 'no such page event') : undefined,
        /cannot fix: no such page event/,
      ],
    ])('stops it as needs_review with the error as the reason, driven once, not retried for ever (%s)', async (_, fail, reason) => {
      const runId = await start();
      const source = new ThreePages(`permanent-${runId}`);
      const drivers = driversOn(storeThatFails(fail), source);
      try {
        drivers.drive(runId, metadata);
        const run = await stoppedRun(runId);

        expect(run).toMatchObject({ status: 'needs_review', reason: expect.stringMatching(reason) });
        expect(run.reason).toMatch(/^the page at cursor \(start\) stopped on an error/);
        await waitFor('the driver to end', async () => drivers.driving === 0);
        expect(source.fetches.get('start')).toBe(1);
      } finally {
        await drivers.stop();
      }
    });

    it('stops driving it, the run left running for a human, when even its needs_review is refused for good', async () => {
      const runId = await start();
      const source = new ThreePages(`unrecordable-${runId}`);
      const refused = new InvalidAppend('EVENT_DATA', 'nothing goes into this run');
      const drivers = driversOn(
        storeThatFails((stream) => (stream.startsWith('import-') ? refused : undefined)),
        source,
      );
      try {
        drivers.drive(runId, metadata);

        await waitFor('the driver to end', async () => drivers.driving === 0, 10_000);
        expect(source.fetches.get('start')).toBe(1);
        expect(await loadRun(store, runId)).toMatchObject({ status: 'running', processed: 0 });
      } finally {
        await drivers.stop();
      }
    });
  });

  describe('when driving it fails on an error that may pass (a lost connection)', () => {
    it('drives it again after a backoff, from its last recorded page, until it completes', async () => {
      const runId = await start();
      const source = new ThreePages(`transient-${runId}`);
      let failures = 0;
      const lost = () => (failures++ === 0 ? new Error('Connection terminated unexpectedly') : undefined);
      const drivers = driversOn(
        storeThatFails((stream) => (stream.startsWith('contact-') ? lost() : undefined)),
        source,
      );
      try {
        drivers.drive(runId, metadata);

        expect(await stoppedRun(runId)).toMatchObject({ status: 'completed', processed: 6 });
        expect(source.fetches.get('start')).toBe(2);
      } finally {
        await drivers.stop();
      }
    });

    it('waits the first delay again after a failure that follows recorded pages, not the delay earlier failures grew to', async () => {
      const runId = await start();
      const tag = `after-progress-${runId}`;
      const source = new ThreePages(tag);
      // An outage on the first page (four failed attempts in a row), then one passing error on the third.
      const failing = new Map([
        [`contact-crm.${tag}-0`, 4],
        [`contact-crm.${tag}-4`, 1],
      ]);
      const failedAt: number[] = [];
      let thirdPageAt = 0;
      const runStore = storeThatFails((stream) => {
        const left = failing.get(stream) ?? 0;
        if (left === 0) {
          if (stream === `contact-crm.${tag}-4`) thirdPageAt = performance.now();
          return undefined;
        }
        failing.set(stream, left - 1);
        failedAt.push(performance.now());
        return new Error('PostgreSQL did not answer a statement within 10000 ms');
      });
      const drivers = new RunDrivers({
        store: runStore,
        sources: () => source,
        pageSize: 2,
        backoffMs: 5,
        locks: runLocksOn(pool),
        retryDelayMs: { initial: 100, max: 5_000 },
      });
      try {
        drivers.drive(runId, metadata);

        expect(await stoppedRun(runId)).toMatchObject({ status: 'completed', processed: 6 });
        expect(failedAt).toHaveLength(5);
        // Four failures in a row grew the delay to 1,600 ms; the fifth follows two recorded pages.
        expect(thirdPageAt - failedAt[4]).toBeLessThan(800);
      } finally {
        await drivers.stop();
      }
    });
  });

  describe('whose source is not configured here', () => {
    it('is left running, untouched, with one line saying why however often it is asked', async () => {
      const runId = await start();
      const before = await loadRun(store, runId);
      const warn = jest.spyOn(Logger.prototype, 'warn');
      const drivers = driversOn(store, undefined);
      try {
        for (let asked = 0; asked < 3; asked++) {
          drivers.drive(runId, metadata);
          await waitFor('the driver to leave the run', async () => drivers.driving === 0);
        }
        expect(isLeftAlone(runId)).toBe(true);
        expect(await loadRun(store, runId)).toEqual(before);
        const lines = warn.mock.calls.map(([line]) => String(line)).filter((line) => line.includes(runId));
        expect(lines).toEqual([
          `import run ${runId} is left running for a process that reaches its source as it started: no contact source is configured here under the name crm`,
        ]);
      } finally {
        warn.mockRestore();
        await drivers.stop();
      }
    });
  });
});

describe('one background driver per run per process', () => {
  it("starts one driver when two RunDrivers of one process (the api's and a worker's) are asked at once", async () => {
    const runId = await start();
    const source = new ThreePages(`twice-${runId}`);
    source.hold();
    const api = driversOn(store, source);
    const worker = driversOn(store, source);
    try {
      api.drive(runId, metadata);
      worker.drive(runId, metadata);
      api.drive(runId, metadata);
      await waitFor('the first page to be asked for', async () => source.inFlight > 0);

      expect(api.driving + worker.driving).toBe(1);
      source.letGo();
      expect(await stoppedRun(runId)).toMatchObject({ status: 'completed', processed: 6 });
      expect(Object.fromEntries(source.fetches)).toEqual({ start: 1, '2': 1, '4': 1 });
    } finally {
      source.letGo();
      await Promise.all([api.stop(), worker.stop()]);
    }
  });

  it('keeps that driver while it waits to try again after a failure: asked again then, no second one starts', async () => {
    const runId = await start();
    const source = new ThreePages(`backoff-${runId}`);
    let failures = 0;
    const lost = () => (failures++ === 0 ? new Error('Connection terminated unexpectedly') : undefined);
    const api = driversOn(
      storeThatFails((stream) => (stream.startsWith('contact-') ? lost() : undefined)),
      source,
    );
    const worker = driversOn(store, source);
    try {
      api.drive(runId, metadata);
      // Failed once and not driving: waiting out the backoff (0.5 s). No I/O in the probe, so the check
      // and the calls after it run before the backoff's timer can fire.
      await waitFor('the driver to wait to try again', async () => failures > 0 && !isDrivenHere(runId));
      worker.drive(runId, metadata);
      api.drive(runId, metadata);
      const swept = orphanedRuns(runLocksOn(pool), () => Promise.resolve([runId]));

      expect(api.driving + worker.driving).toBe(1);
      expect(await swept).toEqual([]);
      expect(await stoppedRun(runId)).toMatchObject({ status: 'completed', processed: 6 });
      expect(source.fetches.get('start')).toBe(2);
    } finally {
      await Promise.all([api.stop(), worker.stop()]);
    }
  });
});
