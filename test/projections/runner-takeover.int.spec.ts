/**
 * One active runner per projection: two runner processes started at once split nothing — each
 * projection is advanced by exactly one of them — and when the active one is killed the standby takes
 * over from the stored checkpoint.
 */
import type { RecordedEvent } from '../../src/event-store/event-store.port';
import { matchesFilter } from '../../src/subscriptions/event-filter';
import { readModelProjection } from '../../src/subscriptions/read-models/read-model.projection';
import { verifyReadModel } from '../../src/subscriptions/read-models/verify';
import { READ_MODELS, REACTORS } from '../harness/projection-catalogue';
import { LiveWriter } from './live-writer';
import { createProjectionDatabase, waitFor, waitUntilCaughtUp, type ProjectionDatabase } from './projection-harness';
import { RunnerChild } from './runner-child';

const ALL = [...READ_MODELS.map(readModelProjection), ...REACTORS];
const NAMES = ALL.map((p) => p.name).sort();

/** The projections that have something to do among `events`. */
const withWorkIn = (events: RecordedEvent[]) =>
  ALL.filter((projection) => events.some((event) => matchesFilter(projection.filter, event))).map((p) => p.name);

describe('Two runner processes started at once', () => {
  let db: ProjectionDatabase;
  const children: RunnerChild[] = [];

  beforeAll(async () => {
    db = await createProjectionDatabase('runner_takeover');
  });
  afterAll(async () => {
    await Promise.all(children.map((child) => child.kill()));
    await db.close();
  });

  it('advance each projection from one process only, and the survivor takes over when the active one dies', async () => {
    const writer = new LiveWriter(db.store, 7, { concurrency: 2 });
    await writer.appendCount(300);
    children.push(new RunnerChild(db.url, { WAIT_FOR_GO: '1' }), new RunnerChild(db.url, { WAIT_FOR_GO: '1' }));
    const [a, b] = children;
    await Promise.all(children.map((child) => child.waitFor('loaded', (r) => r.event === 'loaded')));
    a.go();
    b.go();
    await waitFor('each projection active in exactly one process', async () =>
      NAMES.every((name) => children.filter((child) => child.activeProjections().has(name)).length === 1),
    );
    await writer.appendCount(300);
    await waitUntilCaughtUp(db.store, db.pool, ALL);

    const withWorkSoFar = withWorkIn(await db.store.readAll({ maxCount: 10_000 }));
    for (const name of NAMES) {
      const active = children.filter((child) => child.activeProjections().has(name));
      const committing = children.filter((child) => child.committedProjections().has(name));
      // One process commits each projection that had events to process; none commits one that had none.
      const expected = withWorkSoFar.includes(name) ? 1 : 0;
      expect({ name, active: active.length, committing: committing.length }).toEqual({ name, active: 1, committing: expected });
      if (expected) expect(committing[0]).toBe(active[0]);
    }

    const victim = a.activeProjections().has('orders') ? a : b;
    const survivor = victim === a ? b : a;
    const taken = [...victim.activeProjections()];
    await victim.kill('SIGKILL');
    const [lastBeforeKill] = await db.store.readAll({ direction: 'backwards', maxCount: 1 });
    await writer.appendCount(300);
    await survivor.waitFor('the standby to take over', () => taken.every((name) => survivor.activeProjections().has(name)));
    await waitUntilCaughtUp(db.store, db.pool, ALL);
    // Every projection with something to do after the kill has committed in the survivor (before the
    // kill too, for those it ran all along). A reactor on rare events, such as the review alerts', may
    // have nothing among 300 random appends, so "every projection" would be luck.
    const withWork = withWorkIn(await db.store.readAll({ after: lastBeforeKill.position, maxCount: 10_000 }));
    expect(withWork).toEqual(expect.arrayContaining(['orders', 'charge_order_reactor', 'audit_chain']));
    expect([...survivor.committedProjections()]).toEqual(expect.arrayContaining(withWork));
    for (const model of READ_MODELS) {
      expect((await verifyReadModel(db.store, db.pool, model)).differences).toEqual([]);
    }
  });
});
