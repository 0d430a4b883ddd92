/**
 * The blue/green switch. In one transaction: lock the live and building rows (the live runner's next
 * batch waits), apply to the new version whatever the live one has already shown readers beyond the
 * new version's checkpoint, retire the old version, mark the new one live and repoint the view.
 * Readers therefore see the old table up to the commit and the new one after it: never an empty
 * table, never a state older than the one they just saw.
 */
import type { Pool } from 'pg';
import { compareCheckpoints } from '../../event-store/checkpoint';
import type { Checkpoint, EventStore } from '../../event-store/event-store.port';
import { lockActiveVersions, setVersionState, CHECKPOINT_TABLE } from '../checkpoint-store';
import type { AnyReadModel } from './read-model';
import { applyToTable } from './read-model.projection';
import { inTransaction, lockRegistry, pointReadersAt } from './versions';

export interface SwitchResult {
  from: number | undefined;
  to: number;
  /** Events the new version applied inside the switch to draw level with the old one. */
  caughtUpEvents: number;
}

export async function switchReaders(store: EventStore, pool: Pool, model: AnyReadModel, version: number): Promise<SwitchResult> {
  return inTransaction(pool, async (client) => {
    // A long query on the view must not hold the live runner up for long: give up and let the caller retry.
    await client.query(`SET LOCAL lock_timeout = '10s'`);
    await lockRegistry(client, model.name);
    const rows = await lockActiveVersions(client, model.name);
    const live = rows.find((row) => row.state === 'live');
    const building = rows.find((row) => row.state === 'building' && row.version === version);
    if (!building) throw new Error(`${model.name}@${version} is not being built`);
    let caughtUpEvents = 0;
    if (live?.checkpoint && (!building.checkpoint || compareCheckpoints(live.checkpoint, building.checkpoint) > 0)) {
      const context = { client, version, mode: 'rebuild' as const };
      let after = building.checkpoint;
      for (;;) {
        const page = await store.readAll({ after, maxCount: 1000, filter: model.filter });
        const inRange = page.filter((event) => compareCheckpoints(event.position, live.checkpoint!) <= 0);
        await applyToTable(model, inRange, context);
        caughtUpEvents += inRange.length;
        if (inRange.length < page.length || page.length < 1000) break;
        after = page.at(-1)!.position;
      }
      await client.query(
        `UPDATE ${CHECKPOINT_TABLE} SET checkpoint = $3, events_processed = events_processed + $4, updated_at = now() WHERE name = $1 AND version = $2`,
        [model.name, version, live.checkpoint satisfies Checkpoint, caughtUpEvents],
      );
    }
    if (live) await setVersionState(client, model.name, live.version, 'retired');
    await setVersionState(client, model.name, version, 'live');
    await pointReadersAt(client, model, version);
    return { from: live?.version, to: version, caughtUpEvents };
  });
}
