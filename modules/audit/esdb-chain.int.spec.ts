/**
 * The audit chain on the EventStoreDB adapter (its protocol emulator): the projector links the
 * history read through the port, verify recomputes it through the port, and the chain's tables and
 * checkpoint live in PostgreSQL as with the PostgreSQL store. Nothing in the chain depends on which
 * store holds the events. The seals are published to `seal-ledger` on EventStoreDB as well.
 */
import { randomUUID } from 'node:crypto';
import { auditChainProjector } from '../../projections/audit-chain/audit-chain.projector';
import { migrateAuditChain } from '../../projections/audit-chain/audit-chain.schema';
import { EsdbEventStore } from '../../src/event-store/esdb/esdb.event-store';
import type { EventMetadata } from '../../src/event-store/event-store.port';
import { startProjections } from '../../src/subscriptions/start-projections';
import { startEsdbEmulator, type EsdbEmulator } from '../../test/esdb-emulator';
import { createProjectionDatabase, waitUntilCaughtUp, type ProjectionDatabase } from '../../test/projections/projection-harness';
import { SEAL_STREAM, type LedgerSealed } from './ledger-sealed.events';
import { publishSeals } from './publish-seals/publish-seals';
import { checkLinksOf } from './verify-history/check-links';
import { verifyHistory, verifyStream } from './verify-history/verify-history';

const metadata: EventMetadata = {
  correlationId: 'e',
  causationId: 'e',
  actor: { role: 'test', tokenId: 't' },
  recordedAt: new Date().toISOString(),
};

let emulator: EsdbEmulator;
let store: EsdbEventStore;
let db: ProjectionDatabase;
beforeAll(async () => {
  emulator = await startEsdbEmulator();
  store = EsdbEventStore.connect(emulator.connectionString);
  db = await createProjectionDatabase('audit_esdb');
  await migrateAuditChain(db.pool);
});
afterAll(async () => {
  await store?.close();
  await emulator?.close();
  await db?.close();
});

/** Runs the audit_chain projector until it has linked everything stored. */
async function linkChain(): Promise<void> {
  const projector = auditChainProjector({ sealEvery: 4 });
  const running = await startProjections({ store, pool: db.pool, readModels: [], reactors: [projector] });
  try {
    await waitUntilCaughtUp(store, db.pool, [projector]);
  } finally {
    await running.stop();
  }
}

describe('the audit chain over an EventStoreDB history', () => {
  it('links every event with seals and verifies the whole history and each stream', async () => {
    for (let i = 0; i < 9; i += 1)
      await store.append(`order-e${i % 3}`, [{ id: randomUUID(), type: 'Happened', data: { i }, metadata }], 'any');
    await linkChain();

    const total = (await store.readAll()).length;
    expect(total).toBeGreaterThanOrEqual(9);
    expect(await verifyHistory({ store, pool: db.pool })).toMatchObject({ ok: true, checked: total, sealsChecked: Math.floor(total / 4) });
    expect(await verifyStream({ store, pool: db.pool }, 'order-e1')).toEqual({ ok: true, checked: 3, sealsChecked: 0, unchained: 0 });
  });

  it('publishes the seals to seal-ledger, linked and chained, and verifies them against the history', async () => {
    const deps = { store, pool: db.pool, workerId: 'spec' };
    while ((await publishSeals(deps)) > 0) await linkChain();
    const published = await store.readStream(SEAL_STREAM);
    expect(published.map((event) => (event.data as LedgerSealed['data']).eventsSealed)).toEqual([4, 8]);
    expect(checkLinksOf(SEAL_STREAM, published)).toEqual({ checked: 2, unlinked: 0 });
    const total = (await store.readAll()).length;
    expect(await verifyHistory({ store, pool: db.pool })).toMatchObject({ ok: true, checked: total, sealsChecked: 2 * 2 });
  });
});
