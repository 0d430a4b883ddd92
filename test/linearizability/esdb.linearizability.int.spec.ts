import { EsdbEventStore } from '../../src/event-store/esdb/esdb.event-store';
import { startEsdbEmulator, type EsdbEmulator } from '../esdb-emulator';
import { describeLinearizability } from './event-store.linearizability';

let emulator: EsdbEmulator;
let store: EsdbEventStore;

beforeAll(async () => {
  emulator = await startEsdbEmulator();
  store = EsdbEventStore.connect(emulator.connectionString);
});
afterAll(async () => {
  await store.close();
  await emulator.close();
});

// The EventStoreDB adapter groups nothing, and each call crosses gRPC: fewer rounds keep it to a few seconds.
describeLinearizability(
  'EsdbEventStore',
  () => ({ store, capabilities: { duplicateIdOutsideItsSlot: 'appended', eventIdScope: 'stream', maxAppendBytes: 1_048_576 } }),
  6,
);
