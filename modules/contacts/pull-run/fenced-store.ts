/**
 * The event store as a run's driver writes to it: every append first confirms that the driver still
 * holds the run (run-lock.ts), so a driver woken after another took the run over appends nothing — no
 * contact of the page it had fetched, no page record. Reads pass through.
 */
import type { EventStore } from '../../../src/event-store/event-store.port';
import type { HeldRun } from './run-lock';

export function fencedStore(store: EventStore, held: Pick<HeldRun, 'confirm'>): EventStore {
  return {
    append: async (stream, events, expected) => {
      await held.confirm();
      // eslint-disable-next-line no-restricted-syntax -- the events come linked (appendLinked called this append) and pass through unchanged
      return store.append(stream, events, expected);
    },
    get maxAppendBytes() {
      return store.maxAppendBytes;
    },
    readStream: (stream, options) => store.readStream(stream, options),
    readAll: (options) => store.readAll(options),
    subscribeToAll: (options) => store.subscribeToAll(options),
    ping: () => store.ping(),
    close: () => store.close(),
  };
}
