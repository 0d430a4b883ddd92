/**
 * Streams deleted on EventStoreDB behind Idem's back (its protocol emulator), as an operator of the
 * server could: a soft delete hides a stream from reads while `$all` keeps its events until a
 * scavenge; a tombstone refuses every later read and write. `verify` must report either as the stream
 * removed (`missing`, docs/AUDIT.md), and publishing seals must end instead of appending into the void.
 */
import { appendEvents, firstBreak } from '../../test/harness/audit-history';
import { startEsdbAuditHistory, type EsdbAuditHistory } from '../../test/harness/esdb-audit-history';
import { StreamDeleted } from '../../src/event-store/errors';
import { SEAL_STREAM } from './ledger-sealed.events';
import { publishSeals } from './publish-seals/publish-seals';
import { verifyHistory, verifyStream } from './verify-history/verify-history';

const SEAL_EVERY = 4;

let history: EsdbAuditHistory;
/** Nine events in three streams, two seals recorded and both published (4 seals to check in all), everything chained. */
beforeEach(async () => {
  history = await startEsdbAuditHistory('audit_esdb_deleted', SEAL_EVERY);
  for (let i = 0; i < 9; i += 1) await appendEvents(history.store, `order-d${i % 3}`, 1);
  await history.linkChain();
  while ((await publishSeals(history.deps)) > 0) await history.linkChain();
  expect(await verifyHistory(history.deps)).toMatchObject({ ok: true, sealsChecked: 4 });
});
afterEach(() => history?.close());

describe('verify over an EventStoreDB history', () => {
  describe('when a stream was soft-deleted', () => {
    it('reports the stream as missing, although $all still holds its events', async () => {
      await history.softDelete('order-d1');
      expect(await verifyHistory(history.deps)).toMatchObject(firstBreak('missing', 'order-d1', 0));
      expect(await verifyStream(history.deps, 'order-d1')).toMatchObject(firstBreak('missing', 'order-d1', 0));
    });
  });

  describe('when seal-ledger was soft-deleted', () => {
    it('reports the published seals as missing instead of checking fewer seals', async () => {
      await history.softDelete(SEAL_STREAM);
      expect(await verifyHistory(history.deps)).toMatchObject(firstBreak('missing', SEAL_STREAM, 0));
    });
  });

  describe('when a stream was tombstoned', () => {
    it('reports the stream as missing instead of failing with the server refusal', async () => {
      await history.tombstone('order-d2');
      expect(await verifyHistory(history.deps)).toMatchObject(firstBreak('missing', 'order-d2', 0));
      expect(await verifyStream(history.deps, 'order-d2')).toMatchObject(firstBreak('missing', 'order-d2', 0));
    });
  });
});

describe('publishSeals over EventStoreDB', () => {
  describe('when seal-ledger was soft-deleted', () => {
    it('fails with a clear error instead of re-appending the published seals for ever (the server takes them as retries)', async () => {
      await history.softDelete(SEAL_STREAM);
      await expect(publishSeals(history.deps)).rejects.toThrow(/seal-ledger did not advance/);
    }, 20_000);
  });

  describe('when seal-ledger was tombstoned', () => {
    it('fails with StreamDeleted', async () => {
      await history.tombstone(SEAL_STREAM);
      await expect(publishSeals(history.deps)).rejects.toBeInstanceOf(StreamDeleted);
    });
  });
});
