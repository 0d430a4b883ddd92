import type { Pool } from 'pg';
import { encodeCheckpoint } from '../event-store/checkpoint';
import type { EventStore, ReadAllOptions, RecordedEvent } from '../event-store/event-store.port';
import type { Projection } from '../subscriptions/projection';
import { measureLag } from '../subscriptions/projection-lag';
import { probe } from './probe';
import { assertProjectionsCurrent } from './projection-lag.check';

const orders: Projection = { name: 'orders', kind: 'read_model', filter: { streamCategories: ['order'] }, handle: () => Promise.resolve() };

const LIVE_CHECKPOINT = 'live-checkpoint';
const LEFTOVER_CHECKPOINT = 'leftover-checkpoint';

/** projection_checkpoints as a killed rebuild leaves it: the live version, and a building one far behind. */
const pool = {
  query: () =>
    Promise.resolve({
      rows: [
        {
          name: 'orders',
          version: 1,
          kind: 'read_model',
          state: 'live',
          checkpoint: LIVE_CHECKPOINT,
          events_processed: 10,
          updated_at: new Date(),
        },
        {
          name: 'orders',
          version: 2,
          kind: 'read_model',
          state: 'building',
          checkpoint: LEFTOVER_CHECKPOINT,
          events_processed: 3,
          updated_at: new Date(),
        },
      ],
    }),
} as unknown as Pool;

const pendingEvent = (created: Date): RecordedEvent => ({
  id: '00000000-0000-4000-8000-000000000001',
  stream: 'order-1',
  revision: 0,
  position: encodeCheckpoint(1n, 1n),
  type: 'ChargeRequested',
  data: {},
  metadata: { correlationId: 'c', causationId: 'c', actor: { role: 'storefront', tokenId: 't' }, recordedAt: created.toISOString() },
  created,
});

/** A store whose read past the leftover version's checkpoint never answers (a slow scan of a long tail). */
function storeWith(liveTail: RecordedEvent[]) {
  const readAll = jest.fn((options: ReadAllOptions = {}) =>
    options.after === LEFTOVER_CHECKPOINT ? new Promise<RecordedEvent[]>(() => undefined) : Promise.resolve(liveTail),
  );
  return { store: { readAll } as unknown as EventStore, readAll };
}

describe('assertProjectionsCurrent (readiness projection lag)', () => {
  describe('when a killed rebuild left a building version whose lag is slow to read', () => {
    it('answers within the probe budget from the live versions alone', async () => {
      const { store, readAll } = storeWith([]);
      const check = await probe(() => assertProjectionsCurrent(store, pool, [orders], 5_000), 1_000);
      expect(check).toEqual({ status: 'up' });
      expect(readAll.mock.calls.map(([options]) => options?.after)).toEqual([LIVE_CHECKPOINT]);
    });

    it('still reports a live version that is behind', async () => {
      const { store } = storeWith([pendingEvent(new Date(Date.now() - 60_000))]);
      await expect(assertProjectionsCurrent(store, pool, [orders], 5_000)).rejects.toThrow(/orders v1/);
    });
  });
});

describe('measureLag', () => {
  it('measures live and building versions by default (for /metrics and the CLI)', async () => {
    const { store } = storeWith([]);
    const readAll = jest.fn(() => Promise.resolve([]));
    const lags = await measureLag({ ...store, readAll } as unknown as EventStore, pool, [orders], { maxCount: 1 });
    expect(lags.map((lag) => [lag.version, lag.state])).toEqual([
      [1, 'live'],
      [2, 'building'],
    ]);
  });

  it('measures only the states asked for', async () => {
    const { store, readAll } = storeWith([]);
    const lags = await measureLag(store, pool, [orders], { maxCount: 1, states: ['live'] });
    expect(lags.map((lag) => lag.version)).toEqual([1]);
    expect(readAll).toHaveBeenCalledTimes(1);
  });
});
