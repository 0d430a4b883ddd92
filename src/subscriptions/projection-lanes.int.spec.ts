/**
 * Projection lanes (start-projections.ts, projection-group.ts): the members of one lane share a read
 * and wait for each other's commits; a member of another lane does not wait. One member is held inside
 * its batch's open transaction on a promise the test holds, as a bulk import keeps a read model busy.
 */
import { randomUUID } from 'node:crypto';
import { compareCheckpoints } from '../event-store/checkpoint';
import type { Checkpoint } from '../event-store/event-store.port';
import { testEvent } from '../../test/contracts/test-events';
import { heldProjection, type HeldProjection } from '../../test/projections/held-projection';
import { createProjectionDatabase, waitFor, type ProjectionDatabase } from '../../test/projections/projection-harness';
import { readVersions } from './checkpoint-store';
import type { Projection } from './projection';
import { startProjections, type RunningProjections } from './start-projections';

let db: ProjectionDatabase;
let running: RunningProjections | undefined;
let letGo: () => void = () => undefined;

beforeAll(async () => {
  // The held member keeps a transaction open: that must not hold back other test files' reads.
  db = await createProjectionDatabase('projection_lanes');
});
afterEach(async () => {
  letGo();
  await running?.stop();
  running = undefined;
});
afterAll(() => db.close());

const seenBy = (name: string): Projection => ({ name, kind: 'reactor', filter: {}, handle: async () => undefined });
const storedCheckpoint = async (name: string) => (await readVersions(db.pool, name))[0]?.checkpoint ?? undefined;
const isPast = (checkpoint: Checkpoint | undefined, position: Checkpoint) =>
  checkpoint !== undefined && compareCheckpoints(checkpoint, position) >= 0;
const waitPast = (name: string, position: Checkpoint) =>
  waitFor(`${name}'s checkpoint past the event`, async () => isPast(await storedCheckpoint(name), position), 15_000);

/** Starts the two members in the lanes given and waits until both ride their lane's shared read. */
async function startOnSharedReads(held: HeldProjection, other: Projection, lanes: { held: string; other: string }, maxBatchSize?: number) {
  running = await startProjections({
    store: db.store,
    pool: db.pool,
    readModels: [],
    reactors: [held.projection, other],
    lanes: new Map([
      [held.projection.name, lanes.held],
      [other.name, lanes.other],
    ]),
    maxBatchSize,
  });
  await waitFor('both on a shared read', async () => running!.statuses.every((s) => s.state === 'active' && s.read === 'shared'));
}

/**
 * Runs a member the test can hold and another one in the lanes given, waits for both to ride their
 * lane's shared read, then appends an event both apply and waits for the first to be held in its batch.
 */
async function holdOneOfTwo(lanes: { held: string; other: string }) {
  const stream = `lanes-${randomUUID()}`;
  const held = heldProjection(`test_lanes_held_${lanes.held}_${lanes.other}`, (event) => event.stream === stream);
  letGo = held.letGo;
  const other = seenBy(`test_lanes_other_${lanes.held}_${lanes.other}`);
  await startOnSharedReads(held, other, lanes);
  const { position } = await db.store.append(stream, [testEvent()], 'no_stream');
  await waitFor('the held member inside its batch', async () => held.isHeld());
  return { held, other, position };
}

describe('Projection lanes', () => {
  describe('when a member of one lane is held inside its batch', () => {
    it('lets the member of another lane commit the same event, and the held one commits it once let go', async () => {
      const { held, other, position } = await holdOneOfTwo({ held: 'a', other: 'b' });
      await waitPast(other.name, position);
      expect(held.isHeld()).toBe(true);
      expect(isPast(await storedCheckpoint(held.projection.name), position)).toBe(false);

      held.letGo();
      await waitPast(held.projection.name, position);
      expect(held.handled).toHaveLength(1);
    });
  });

  describe('when two members ride one lane and one of them is held inside its batch', () => {
    it("holds the other's commit of that batch too, and commits both in one transaction once let go", async () => {
      const { held, other, position } = await holdOneOfTwo({ held: 'c', other: 'c' });
      // The other member's compare-and-set is in the held transaction: its checkpoint row is locked by it.
      await expect(
        db.pool.query(`SELECT 1 FROM projection_checkpoints WHERE name = $1 FOR UPDATE NOWAIT`, [other.name]),
      ).rejects.toMatchObject({ code: '55P03' });
      expect(isPast(await storedCheckpoint(other.name), position)).toBe(false);

      held.letGo();
      await waitPast(held.projection.name, position);
      await waitPast(other.name, position);
      // A row's xmin is the transaction that wrote it: one batch, one transaction for both checkpoints.
      const { rows } = await db.pool.query(`SELECT DISTINCT xmin::text FROM projection_checkpoints WHERE name = ANY($1)`, [
        [held.projection.name, other.name],
      ]);
      expect(rows).toHaveLength(1);
    });
  });

  describe('when two members ride one lane and a batch is read behind the log', () => {
    it("commits the other's part on its own while the held one is still inside the same batch", async () => {
      // One append of more events than a batch holds: the lane reads them behind the log (batch not
      // caught up), the first batch bringing the event the held member stops on.
      const stream = `lanes-behind-${randomUUID()}`;
      const held = heldProjection('test_lanes_behind_held', (event) => event.stream === stream && event.revision === 0);
      letGo = held.letGo;
      const other = seenBy('test_lanes_behind_other');
      await startOnSharedReads(held, other, { held: 'one', other: 'one' }, 100);
      const events = Array.from({ length: 250 }, () => testEvent());
      await db.store.append(stream, events, 'no_stream');
      const [first] = await db.store.readStream(stream, { maxCount: 1 });
      await waitFor('the held member inside its batch', async () => held.isHeld());

      // Side by side: the other member's transaction does not wait for the held one's.
      await waitPast(other.name, first.position);
      expect(held.isHeld()).toBe(true);
      expect(isPast(await storedCheckpoint(held.projection.name), first.position)).toBe(false);

      held.letGo();
      const [last] = await db.store.readStream(stream, { direction: 'backwards', maxCount: 1 });
      await waitPast(held.projection.name, last.position);
      await waitPast(other.name, last.position);
      expect(held.handled.filter((id) => events.some((e) => e.id === id))).toHaveLength(events.length);
    });
  });
});
