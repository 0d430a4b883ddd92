/**
 * The store is linearizable: random concurrent histories (see record-history.ts) checked stream by
 * stream against the sequential model (event-store.model.ts). Run from an adapter's spec with the
 * adapter's declared capabilities.
 */
import type { EventStore } from '../../src/event-store/event-store.port';
import type { EventStoreCapabilities } from '../contracts/event-store.contract';
import { uniqueCategory } from '../contracts/test-events';
import { checkStoreHistory } from './check-store-history';
import { recordHistory } from './record-history';

/** `rounds`: how many histories (each on two new streams); about 0.2 s each on PostgreSQL, 0.6 s on the emulator. */
export function describeLinearizability(
  adapter: string,
  subject: () => { store: EventStore; capabilities: EventStoreCapabilities },
  rounds = 12,
): void {
  describe(`${adapter} (linearizability)`, () => {
    describe('when 8 clients append, re-append and read two streams at once', () => {
      it(`answers as some sequential order of the same operations would, in ${rounds} random histories`, async () => {
        const { store, capabilities } = subject();
        const base = Date.now();
        for (let round = 0; round < rounds; round++) {
          const category = uniqueCategory();
          const seed = base + round;
          const history = await recordHistory(store, {
            seed,
            streams: [`${category}-a`, `${category}-b`],
            clients: 8,
            operationsPerClient: 12,
          });
          const failure = checkStoreHistory(history, capabilities.duplicateIdOutsideItsSlot);
          if (failure) throw new Error(`Round ${round} (seed ${seed}):\n${failure}`);
        }
      });
    });
  });
}
