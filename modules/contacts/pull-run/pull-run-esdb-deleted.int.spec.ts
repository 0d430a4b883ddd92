/**
 * A pull run on EventStoreDB (its protocol emulator) meeting a contact whose stream an operator deleted
 * for good (a tombstone: the server refuses every append to it; Idem itself never deletes). That record
 * is answered `rejected` with the reason, as a record the store refuses for its size is, and the run goes
 * on and completes: the stream stopped the whole run as needs_review, every other contact after it left
 * unimported until a human resumed it, only to stop there again.
 */
import { EventStoreDBClient } from '@eventstore/db-client';
import { EsdbEventStore } from '../../../src/event-store/esdb/esdb.event-store';
import { testEvent } from '../../../test/contracts/test-events';
import { startEsdbEmulator, type EsdbEmulator } from '../../../test/esdb-emulator';
import { contactStream, importStream, type ImportRecordProcessed } from '../contact.events';
import type { ContactSource, PageRequest } from '../contact-source/contact-source.port';
import { driveRun } from './drive-run';
import { startRun } from './start-run';

const metadata = { correlationId: 'test', causationId: 'test', actor: { role: 'sync', tokenId: 'test' } };

let emulator: EsdbEmulator;
let operator: EventStoreDBClient;
let store: EsdbEventStore;
beforeAll(async () => {
  emulator = await startEsdbEmulator();
  operator = EventStoreDBClient.connectionString(emulator.connectionString);
  store = EsdbEventStore.connect(emulator.connectionString);
});
afterAll(async () => {
  await store?.close();
  await operator?.dispose();
  await emulator?.close();
});

/** Two pages of two contacts: t-0, t-1, then t-2, t-3. */
const twoPages: ContactSource = {
  name: 'crm',
  fetchPage: ({ cursor }: PageRequest) => {
    const first = cursor === null ? 0 : 2;
    const records = [first, first + 1].map((i) => ({ sourceId: `t-${i}`, version: 1, fields: { name: `n${i}` } }));
    return Promise.resolve({ records, nextCursor: cursor === null ? '2' : null });
  },
};

describe('a pull run on EventStoreDB, when a contact stream was tombstoned by an operator', () => {
  it('answers that record rejected with why, imports the others and completes', async () => {
    // t-1 was imported once, then its stream deleted for good on the server.
    await store.append(contactStream('crm', 't-1'), [testEvent()], 'no_stream');
    await operator.tombstoneStream(contactStream('crm', 't-1'));

    const runId = await startRun(store, { source: 'crm', startedBy: 'test', kind: 'pull' }, metadata);
    const run = await driveRun({ store, sources: () => twoPages, pageSize: 2, metadata }, runId);

    expect(run).toMatchObject({ status: 'completed', processed: 4, pages: 2, counts: { imported: 3, rejected: 1 } });
    const outcomes = (await store.readStream(importStream(runId)))
      .filter((e) => e.type === 'ImportRecordProcessed')
      .map((e) => e.data as ImportRecordProcessed['data'])
      .map(({ sourceId, outcome, reason }) => ({ sourceId, outcome, ...(reason ? { reason } : {}) }));
    expect(outcomes).toEqual([
      { sourceId: 't-0', outcome: 'imported' },
      {
        sourceId: 't-1',
        outcome: 'rejected',
        reason: `the contact's stream was deleted from the event store outside Idem, and it takes no more events (Stream ${contactStream('crm', 't-1')} was deleted from the event store: nothing can be appended to it)`,
      },
      { sourceId: 't-2', outcome: 'imported' },
      { sourceId: 't-3', outcome: 'imported' },
    ]);
    expect(await store.readStream(contactStream('crm', 't-3'))).toHaveLength(1);
  });
});
