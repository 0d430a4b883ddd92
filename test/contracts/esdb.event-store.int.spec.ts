/**
 * The event-store contract on EventStoreDB: against the protocol emulator by default, against a real
 * server when EVENTSTORE_CONNECTION_STRING is set (e.g. `esdb://localhost:2113?tls=false` with
 * `docker compose up eventstore`).
 */
import { EsdbEventStore } from '../../src/event-store/esdb/esdb.event-store';
import { startEsdbEmulator, type EsdbEmulator } from '../esdb-emulator';
import { describeEventStoreContract } from './event-store.contract';

const realServer = process.env.EVENTSTORE_CONNECTION_STRING;
let emulator: EsdbEmulator | undefined;
let store: EsdbEventStore;

beforeAll(async () => {
  if (!realServer) emulator = await startEsdbEmulator();
  store = EsdbEventStore.connect(realServer ?? emulator!.connectionString);
});

afterAll(async () => {
  await store.close();
  await emulator?.close();
});

describeEventStoreContract('EsdbEventStore', () => ({
  store,
  // EventStoreDB writes an id again when it is appended outside its slot (esdb.md §2.2).
  capabilities: { duplicateIdOutsideItsSlot: 'appended', eventIdScope: 'stream', maxAppendBytes: 1_048_576 },
}));
