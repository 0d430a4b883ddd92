/**
 * One contender of bench/esdb-append.bench.ts, in its own process, against its own fresh emulator:
 *   idem - Idem's EsdbEventStore.append(stream, [event], 'no_stream' | revision - 1)
 *   raw  - the ceiling: the same client's appendToStream(stream, jsonEvent(event), { expectedRevision })
 * Both run the PostgreSQL benchmark's workload (bench/append/workload.ts) over one client, so one
 * channel and one multiplexed BatchAppend call, as in production.
 */
import { EventStoreDBClient, jsonEvent } from '@eventstore/db-client';
import { EsdbEventStore } from '../../src/event-store/esdb/esdb.event-store';
import { runWorkload, type AppendInput, type AppendOne, type AppendResult } from '../append/workload';
import { childMain } from '../lib/child';
import { serverCpuSeconds } from '../lib/proc';

export interface EsdbContenderInput extends AppendInput {
  /** The emulator host's pid, for its CPU per append. */
  emulatorPid: number;
}

childMain<EsdbContenderInput, AppendResult>(async (input) => {
  const client = EventStoreDBClient.connectionString(input.url);
  const store = new EsdbEventStore(client);
  const appendOne: AppendOne =
    input.contender === 'idem'
      ? async (stream, revision, event) => {
          await store.append(stream, [event], revision === 0 ? 'no_stream' : revision - 1);
        }
      : async (stream, revision, event) => {
          const expectedRevision = revision === 0 ? 'no_stream' : BigInt(revision - 1);
          await client.appendToStream(stream, jsonEvent({ id: event.id, type: event.type, data: event.data, metadata: event.metadata }), {
            expectedRevision,
          });
        };
  try {
    return await runWorkload(input, appendOne, () => serverCpuSeconds(input.emulatorPid));
  } finally {
    await store.close();
  }
});
