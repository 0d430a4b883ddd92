/**
 * `idem audit export <file>` stopped by Ctrl+C in the middle of a history of several pages: the export
 * must stop at its next page, remove its partial file and leave the command runnable again. It used to
 * crash the process instead (a write still in flight when the stream was destroyed raised an unhandled
 * 'error'), leaving the partial file behind.
 */
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendEvents, linkChain } from '../../../test/harness/audit-history';
import { cliOn } from '../../../test/harness/cli-on-database';
import { createProjectionDatabase, type ProjectionDatabase } from '../../../test/projections/projection-harness';
import { migrateAuditChain } from '../../../projections/audit-chain/audit-chain.schema';

/** Three pages of the export (1,000 events a page). */
const EVENTS = 2_500;

async function idemExport(db: ProjectionDatabase, file: string, interrupted?: AbortSignal): Promise<{ code: number; err: string }> {
  return cliOn(db, ['audit', 'export', file], { interrupted });
}

describe('idem audit export', () => {
  let db: ProjectionDatabase;
  let dir: string;
  beforeAll(async () => {
    db = await createProjectionDatabase('audit_export_interrupted');
    await migrateAuditChain(db.pool);
    for (let n = 0; n < EVENTS / 500; n++) await appendEvents(db.store, `order-${n}`, 500);
    await linkChain(db, 1_000);
    dir = await mkdtemp(join(tmpdir(), 'idem-export-'));
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  afterEach(() => jest.restoreAllMocks());

  describe('when Ctrl+C comes while its pages are being written', () => {
    it('stops with the interruption, removes its partial file, and the same command then exports everything', async () => {
      const file = join(dir, 'history.ndjson');
      const controller = new AbortController();
      // The interruption arrives as the second page is read: the first page's lines are still being written.
      const query = db.pool.query.bind(db.pool) as (...args: unknown[]) => unknown;
      let pagesRead = 0;
      jest.spyOn(db.pool, 'query').mockImplementation(((...args: unknown[]) => {
        if (typeof args[0] === 'string' && args[0].includes('FROM audit_chain WHERE event_number >') && ++pagesRead === 2)
          controller.abort(new Error('interrupted (SIGINT)'));
        return query(...args);
      }) as never);

      const interrupted = await idemExport(db, file, controller.signal);

      expect(interrupted).toMatchObject({ code: 2, err: expect.stringContaining('interrupted (SIGINT)') });
      expect(pagesRead).toBe(2);
      await expect(access(file)).rejects.toThrow('ENOENT');
      jest.restoreAllMocks();
      expect(await idemExport(db, file)).toMatchObject({ code: 0 });
      const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
      expect(lines.filter((line) => line.startsWith('{"kind":"event"'))).toHaveLength(EVENTS);
    });
  });
});
