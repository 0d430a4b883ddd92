/**
 * The checkpoint compare-and-set is the safety net behind the runner lock: were two runners ever to
 * work from one checkpoint (a lock lost in a network partition, a bug in the takeover), only the
 * first commit may land; the second must fail with its rows and its job enqueues rolled back.
 */
import { Pool } from 'pg';
import { encodeCheckpoint, type Checkpoint } from '../event-store/checkpoint';
import type { RecordedEvent } from '../event-store/event-store.port';
import { runReadModelMigrations } from '../database/data-source';
import { enqueueManyInTransaction } from '../jobs/enqueue-in-transaction';
import { installJobQueue } from '../jobs/install-job-queue';
import { createTestDatabase } from '../../test/harness/test-database';
import { insertVersion, readVersions } from './checkpoint-store';
import { CheckpointConflict, commitBatch, commitBatches, type RunnerMember } from './commit-batch';
import type { Projection } from './projection';

let pool: Pool;

/** A read model writing one row per event, and a reactor enqueueing one job per event. */
const rowsModel: Projection = {
  name: 'cas_rows',
  kind: 'read_model',
  filter: {},
  async handle(events, { client }) {
    for (const event of events) await client.query(`INSERT INTO cas_rows (event_id) VALUES ($1)`, [event.id]);
  },
};
const jobsReactor: Projection = {
  name: 'cas_jobs',
  kind: 'reactor',
  filter: {},
  async handle(events, { client }) {
    await enqueueManyInTransaction(
      client,
      events.map((event) => ({ task: 'cas-task', payload: { eventId: event.id }, options: { jobKey: `cas-task:${event.id}` } })),
    );
  },
};

beforeAll(async () => {
  const url = await createTestDatabase('commit_batch');
  pool = new Pool({ connectionString: url, max: 4 });
  await runReadModelMigrations(url);
  await installJobQueue(pool);
  await pool.query(`CREATE TABLE cas_rows (event_id text PRIMARY KEY)`);
  await insertVersion(pool, rowsModel.name, 1, 'read_model', 'live');
  await insertVersion(pool, jobsReactor.name, 1, 'reactor', 'live');
});
afterAll(() => pool.end());

let sequence = 0;
function eventAt(position: Checkpoint): RecordedEvent {
  sequence++;
  return {
    id: `evt-${sequence}`,
    stream: `cas-${sequence}`,
    revision: 0,
    position,
    type: 'Happened',
    data: {},
    metadata: { correlationId: 'c', causationId: 'c', actor: { role: 'test', tokenId: 't' }, recordedAt: new Date().toISOString() },
    created: new Date(),
  };
}
const member = (projection: Projection, checkpoint: Checkpoint | undefined): RunnerMember => ({
  projection,
  version: 1,
  state: 'live',
  mode: 'live',
  checkpoint,
});
const storedCheckpoint = async (name: string) => (await readVersions(pool, name))[0];
const rowsFor = async (events: RecordedEvent[]) =>
  (await pool.query(`SELECT event_id FROM cas_rows WHERE event_id = ANY($1)`, [events.map((e) => e.id)])).rowCount;
const jobsFor = async (events: RecordedEvent[]) =>
  (await pool.query(`SELECT 1 FROM graphile_worker._private_jobs WHERE key = ANY($1)`, [events.map((e) => `cas-task:${e.id}`)])).rowCount;

describe('commitBatches', () => {
  describe('when two runners commit from one stale checkpoint', () => {
    it('lets the first land and fails the second with CheckpointConflict, rolling back its rows and job enqueues', async () => {
      const start = (await storedCheckpoint(rowsModel.name)).checkpoint;
      expect((await storedCheckpoint(jobsReactor.name)).checkpoint).toBe(start);
      const first = [eventAt(encodeCheckpoint(1000n, 1n))];
      const second = [eventAt(encodeCheckpoint(1000n, 2n)), eventAt(encodeCheckpoint(1000n, 3n))];
      const runnerA = [member(rowsModel, start), member(jobsReactor, start)];
      const runnerB = [member(rowsModel, start), member(jobsReactor, start)];

      await commitBatches(
        pool,
        runnerA.map((m) => ({ member: m, events: first })),
        first[0].position,
      );
      await expect(
        commitBatches(
          pool,
          runnerB.map((m) => ({ member: m, events: second })),
          second[1].position,
        ),
      ).rejects.toBeInstanceOf(CheckpointConflict);

      expect(await rowsFor(first)).toBe(1);
      expect(await jobsFor(first)).toBe(1);
      expect(await rowsFor(second)).toBe(0);
      expect(await jobsFor(second)).toBe(0);
      for (const name of [rowsModel.name, jobsReactor.name]) {
        expect(await storedCheckpoint(name)).toMatchObject({ checkpoint: first[0].position, eventsProcessed: 1 });
      }
      // The loser keeps believing the checkpoint it started from: it must re-read, not carry on.
      expect(runnerB.map((m) => m.checkpoint)).toEqual([start, start]);
    });
  });

  describe('when only one member of a shared batch is stale', () => {
    it('rolls back the fresh member too: the batch lands whole or not at all', async () => {
      const current = (await storedCheckpoint(rowsModel.name)).checkpoint;
      const batch = [eventAt(encodeCheckpoint(2000n, 1n))];
      const stale = member(jobsReactor, undefined);
      await expect(
        commitBatches(
          pool,
          [
            { member: member(rowsModel, current), events: batch },
            { member: stale, events: batch },
          ],
          batch[0].position,
        ),
      ).rejects.toBeInstanceOf(CheckpointConflict);
      expect(await rowsFor(batch)).toBe(0);
      expect(await jobsFor(batch)).toBe(0);
      expect((await storedCheckpoint(rowsModel.name)).checkpoint).toBe(current);
    });
  });

  describe('when a lone runner commits from a stale checkpoint', () => {
    it('fails with CheckpointConflict and leaves no job behind', async () => {
      const current = (await storedCheckpoint(jobsReactor.name)).checkpoint;
      const moved = [eventAt(encodeCheckpoint(3000n, 1n))];
      await commitBatch(pool, member(jobsReactor, current), moved, moved[0].position);
      const late = [eventAt(encodeCheckpoint(3000n, 2n))];
      await expect(commitBatch(pool, member(jobsReactor, current), late, late[0].position)).rejects.toBeInstanceOf(CheckpointConflict);
      expect(await jobsFor(late)).toBe(0);
      expect((await storedCheckpoint(jobsReactor.name)).checkpoint).toBe(moved[0].position);
    });
  });
});
