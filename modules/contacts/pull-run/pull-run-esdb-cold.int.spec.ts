/**
 * On EventStoreDB (its protocol emulator) too, a pull run loaded by a process that never loaded it is
 * read backwards from its end to its last page's totals (stateAtLastTotals) and is the fold of its whole
 * stream: stopped between pages, and completed.
 */
import { EsdbEventStore } from '../../../src/event-store/esdb/esdb.event-store';
import { listSource } from '../../../test/harness/cold-run';
import { startEsdbEmulator, type EsdbEmulator } from '../../../test/esdb-emulator';
import { importStream, type ImportEvent } from '../contact.events';
import { evolveImportRun, initialImportRunState } from '../import-run.state';
import { driveRun, loadRun } from './drive-run';
import { startRun } from './start-run';

const metadata = { correlationId: 'test', causationId: 'test', actor: { role: 'sync', tokenId: 'test' } };
const PAGE_SIZE = 50;
const source = listSource(
  Array.from({ length: 600 }, (_, i) =>
    i % 41 === 3 ? { sourceId: '', fields: {} } : { sourceId: `e-${i % 400}`, version: 1 + Math.floor(i / 400), fields: { i } },
  ),
  PAGE_SIZE,
);

let emulator: EsdbEmulator;
let store: EsdbEventStore;
beforeAll(async () => {
  emulator = await startEsdbEmulator();
  store = EsdbEventStore.connect(emulator.connectionString);
});
afterAll(async () => {
  await store?.close();
  await emulator?.close();
});

async function expectColdLoadIsTheFold(runId: string) {
  const whole = (await store.readStream(importStream(runId))).reduce(
    (run, e) => evolveImportRun(run, e as unknown as ImportEvent & { metadata: { recordedAt: string } }),
    initialImportRunState(),
  );
  const cold = EsdbEventStore.connect(emulator.connectionString);
  try {
    const read = jest.spyOn(cold, 'readStream');
    expect(await loadRun(cold, runId, PAGE_SIZE)).toEqual(whole);
    const events = (await Promise.all(read.mock.results.map((r) => r.value as Promise<unknown[]>))).flat();
    expect(events.length).toBeLessThanOrEqual(2 * PAGE_SIZE);
  } finally {
    await cold.close();
  }
  return whole;
}

it('loads a long pull run cold from its last page on, to what its whole stream says', async () => {
  const runId = await startRun(store, { source: 'crm', startedBy: 'test', kind: 'pull' }, metadata);
  const stopping = new AbortController();
  const deps = { store, sources: () => source, pageSize: PAGE_SIZE, metadata };
  await driveRun({ ...deps, signal: stopping.signal, onPage: (run) => run.pages >= 7 && stopping.abort() }, runId);
  expect(await expectColdLoadIsTheFold(runId)).toMatchObject({ status: 'running', recordedInPage: 0 });
  await driveRun(deps, runId);
  expect(await expectColdLoadIsTheFold(runId)).toMatchObject({ status: 'completed', processed: 600 });
});
