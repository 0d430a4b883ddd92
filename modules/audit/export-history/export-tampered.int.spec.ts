/**
 * `idem audit export` over a history tampered with in PostgreSQL: the export and a `verify-file` of it
 * must name the break that `verify` names (kind and place), and every event line must carry the hashes
 * the chain recorded for that very event. The export used to pair the store's events with the chain's
 * entries by count, so one event gone (or slipped in, or moved) shifted every later line onto another event's
 * hashes and number, and the break came out as `rewritten` at an innocent event.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventHash } from '../../../projections/audit-chain/chain-hash';
import type { ProjectionDatabase } from '../../../test/projections/projection-harness';
import { chainedHistory, firstBreak, idem, tamper } from '../../../test/harness/audit-history';
import type { BreakKind } from '../verify-history/chain-break';
import { verifyHistory } from '../verify-history/verify-history';
import type { EventLine } from './export-lines';

describe('idem audit export of a tampered history', () => {
  let db: ProjectionDatabase;
  let dir: string;
  beforeEach(async () => {
    db = await chainedHistory('audit_export_tampered', 4);
    dir = await mkdtemp(join(tmpdir(), 'idem-export-'));
  });
  afterEach(async () => {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Exports, checks the file offline, and returns both answers with the file's event lines. */
  async function exportAndCheck() {
    const file = join(dir, 'history.ndjson');
    const exported = await idem(db, 'audit', 'export', file);
    const checked = await idem(db, 'audit', 'verify-file', file);
    const lines = (await readFile(file, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((text) => JSON.parse(text) as { kind: string })
      .filter((line): line is EventLine => line.kind === 'event');
    return {
      exported: { code: exported.code, ...(JSON.parse(exported.out) as object) },
      checked: { code: checked.code, ...JSON.parse(checked.out) },
      lines,
    };
  }

  /** The event lines of chained events carry their own event's recorded hash, whatever came before them. */
  const ownHashes = (lines: EventLine[]) =>
    lines.filter((line) => line.chainHash !== null).every((line) => line.eventHash === eventHash(line));

  const breakAt = (kind: BreakKind, stream: string, revision: number) => firstBreak(kind, stream, revision).firstBreak;

  describe('when an event was deleted', () => {
    it('names it missing, as verify does, and the file breaks as missing where its number is skipped', async () => {
      await tamper.deleteEvent(db, 'order-b', 1); // event 3 of the global order
      expect(await verifyHistory(db)).toMatchObject(firstBreak('missing', 'order-b', 1));

      const { exported, checked, lines } = await exportAndCheck();

      expect(exported).toMatchObject({ code: 1, events: 10, chained: 11, firstBreak: breakAt('missing', 'order-b', 1) });
      expect(checked).toMatchObject({ code: 1, ...firstBreak('missing', 'order-a', 1), checked: 2 });
      expect(lines.map((line) => line.eventNumber)).toEqual([1, 2, 4, 5, 6, 7, 8, 9, 10, 11]);
      expect(ownHashes(lines)).toBe(true);
    });
  });

  describe('when a whole stream was removed', () => {
    it('names its first event missing, as verify does, and leaves every other event on its own hashes', async () => {
      await tamper.deleteStream(db, 'contact-crm.1'); // events 5, 9 and 10
      expect(await verifyHistory(db)).toMatchObject(firstBreak('missing', 'contact-crm.1', 0));

      const { exported, checked, lines } = await exportAndCheck();

      expect(exported).toMatchObject({ code: 1, events: 8, chained: 11, firstBreak: breakAt('missing', 'contact-crm.1', 0) });
      expect(checked).toMatchObject({ code: 1, ...firstBreak('missing', 'order-b', 2), checked: 4 });
      expect(lines.map((line) => line.eventNumber)).toEqual([1, 2, 3, 4, 6, 7, 8, 11]);
      expect(ownHashes(lines)).toBe(true);
    });
  });

  describe('when an event was slipped in before the chain ends', () => {
    it('exports it as it stands, unchained, and both name it extra, as verify does', async () => {
      await tamper.forgeEventBeforeAll(db, 'order-forged');
      expect(await verifyHistory(db)).toMatchObject(firstBreak('extra', 'order-forged', 0));

      const { exported, checked, lines } = await exportAndCheck();

      expect(exported).toMatchObject({ code: 1, events: 11, chained: 11, firstBreak: breakAt('extra', 'order-forged', 0) });
      expect(checked).toMatchObject({ code: 1, ...firstBreak('extra', 'order-forged', 0), checked: 0 });
      expect(lines[0]).toMatchObject({ stream: 'order-forged', revision: 0, chainHash: null, eventHash: eventHash(lines[0]) });
      expect(lines.slice(1).map((line) => line.eventNumber)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
      expect(ownHashes(lines)).toBe(true);
    });
  });

  describe('when an event was moved later in the global order', () => {
    it('writes it where it is stored, with its own number, and both name it reordered, as verify does', async () => {
      // order-a@1 (event 4) moved behind contact-crm.1@0 (event 5), inside that event's transaction.
      await db.pool.query(
        `UPDATE idem_events SET (transaction_id, sequence) = (SELECT transaction_id, sequence + 1000000 FROM idem_events
           WHERE stream_name = 'contact-crm.1' AND revision = 0) WHERE stream_name = 'order-a' AND revision = 1`,
      );
      expect(await verifyHistory(db)).toMatchObject(firstBreak('reordered', 'order-a', 1));

      const { exported, checked, lines } = await exportAndCheck();

      expect(exported).toMatchObject({ code: 1, events: 11, chained: 11, firstBreak: breakAt('reordered', 'order-a', 1) });
      expect(checked).toMatchObject({ code: 1, ...firstBreak('reordered', 'order-a', 1), checked: 3 });
      expect(lines.map((line) => line.eventNumber)).toEqual([1, 2, 3, 5, 4, 6, 7, 8, 9, 10, 11]);
      expect(ownHashes(lines)).toBe(true);
    });
  });

  describe('when two revisions of a stream were swapped', () => {
    it('names the first of them reordered, as verify does, in the export and offline', async () => {
      await tamper.swapRevisions(db, 'order-a', 1, 2);
      expect(await verifyHistory(db)).toMatchObject(firstBreak('reordered', 'order-a', 1));

      const { exported, checked } = await exportAndCheck();

      expect(exported).toMatchObject({ code: 1, firstBreak: breakAt('reordered', 'order-a', 1) });
      expect(checked).toMatchObject({ code: 1, ...firstBreak('reordered', 'order-a', 1), checked: 3 });
      expect(checked.firstBreak.detail).toMatch(/was chained at order-a@1 and now sits at order-a@2$/);
    });
  });
});
