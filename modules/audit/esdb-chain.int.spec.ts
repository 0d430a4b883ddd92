/**
 * The audit chain on the EventStoreDB adapter (its protocol emulator): the projector links the
 * history read through the port, verify recomputes it through the port, and the chain's tables and
 * checkpoint live in PostgreSQL as with the PostgreSQL store. Nothing in the chain depends on which
 * store holds the events. The seals are published to `seal-ledger` on EventStoreDB as well.
 */
import { randomUUID } from 'node:crypto';
import type { EventMetadata } from '../../src/event-store/event-store.port';
import { startEsdbAuditHistory, type EsdbAuditHistory } from '../../test/harness/esdb-audit-history';
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

let history: EsdbAuditHistory;
beforeAll(async () => {
  history = await startEsdbAuditHistory('audit_esdb', 4);
});
afterAll(() => history?.close());

describe('the audit chain over an EventStoreDB history', () => {
  it('links every event with seals and verifies the whole history and each stream', async () => {
    for (let i = 0; i < 9; i += 1)
      await history.store.append(`order-e${i % 3}`, [{ id: randomUUID(), type: 'Happened', data: { i }, metadata }], 'any');
    await history.linkChain();

    const total = (await history.store.readAll()).length;
    expect(total).toBeGreaterThanOrEqual(9);
    expect(await verifyHistory(history.deps)).toMatchObject({ ok: true, checked: total, sealsChecked: Math.floor(total / 4) });
    expect(await verifyStream(history.deps, 'order-e1')).toEqual({ ok: true, checked: 3, sealsChecked: 0, unchained: 0 });
  });

  it('publishes the seals to seal-ledger, linked and chained, and verifies them against the history', async () => {
    const deps = history.deps;
    while ((await publishSeals(deps)) > 0) await history.linkChain();
    const published = await history.store.readStream(SEAL_STREAM);
    expect(published.map((event) => (event.data as LedgerSealed['data']).eventsSealed)).toEqual([4, 8]);
    expect(checkLinksOf(SEAL_STREAM, published)).toEqual({ checked: 2, unlinked: 0 });
    const total = (await history.store.readAll()).length;
    expect(await verifyHistory(history.deps)).toMatchObject({ ok: true, checked: total, sealsChecked: 2 * 2 });
  });
});
