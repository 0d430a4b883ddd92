/**
 * A pull run fetches a page again whenever its driver stopped between the page's contact appends and
 * the append of its outcomes (a kill, a driver that lost its run to another): by then a live CRM may
 * have edited a contact of that page. The run must end with what the source said last, and its audit
 * must say what the contact holds.
 */
import { Pool } from 'pg';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import { createTestDatabase } from '../../../test/harness/test-database';
import { contactStream, importStream, type ImportRecordProcessed } from '../contact.events';
import type { ContactPage, ContactSource, PageRequest } from '../contact-source/contact-source.port';
import { driveRun, loadRun, type RunDriverDeps } from './drive-run';
import { startRun } from './start-run';

let pool: Pool;
let store: PostgresEventStore;
const metadata: RunDriverDeps['metadata'] = { correlationId: 'test', causationId: 'test', actor: { role: 'sync', tokenId: 'test' } };

beforeAll(async () => {
  pool = new Pool({ connectionString: await createTestDatabase('contacts_pull_refetch'), max: 8 });
  store = new PostgresEventStore(pool);
  await store.migrate();
});
afterAll(() => pool.end());

/** Two pages of three contacts (cursor null, then "3"); `edit` moves a contact to its next version, as a live CRM does. */
class LiveCrm implements ContactSource {
  readonly name = 'crm';
  private readonly versions = new Map<string, number>();

  constructor(private readonly tag: string) {}

  id = (i: number) => `${this.tag}-${i}`;

  edit(i: number): void {
    this.versions.set(this.id(i), this.version(i) + 1);
  }

  version = (i: number) => this.versions.get(this.id(i)) ?? 1;

  fetchPage({ cursor }: PageRequest): Promise<ContactPage> {
    const first = cursor === null ? 0 : Number(cursor);
    const records = [first, first + 1, first + 2].map((i) => ({
      sourceId: this.id(i),
      version: this.version(i),
      fields: { name: `n${i}`, version: this.version(i) },
    }));
    return Promise.resolve({ records, nextCursor: first === 0 ? '3' : null });
  }
}

const start = () => startRun(store, { source: 'crm', startedBy: 'test', kind: 'pull' }, metadata);

async function lastVersionOf(stream: string): Promise<{ version: unknown; revision: number }> {
  const events = await store.readStream(stream);
  const last = events.at(-1)!;
  return { version: (last.data as { sourceVersion?: number }).sourceVersion, revision: last.revision };
}

describe('a pull run whose driver stopped before recording a page', () => {
  describe('when the CRM edited a contact of that page before the page was fetched again', () => {
    it('ends with the version fetched last, and its audit names the version and revision the contact holds', async () => {
      const runId = await start();
      const crm = new LiveCrm(`edited-${runId.slice(4, 12)}`);
      const deps: RunDriverDeps = { store, sources: () => crm, pageSize: 3, backoffMs: 5, metadata };
      const killed = new Error('killed between the contact appends and the page record');
      await expect(
        driveRun(
          {
            ...deps,
            beforeRecordingPage: () => Promise.reject(killed),
          },
          runId,
        ),
      ).rejects.toBe(killed);
      crm.edit(1);

      const run = await driveRun(deps, runId);

      expect(run).toMatchObject({ status: 'completed', processed: 6, pages: 2 });
      // As a run that read the page once, after the edit: every contact new to the store is imported.
      expect(run.counts).toEqual({ imported: 6 });
      const contact = await lastVersionOf(contactStream('crm', crm.id(1)));
      expect(contact.version).toBe(2);
      const audit = (await store.readStream(importStream(runId)))
        .filter((e) => e.type === 'ImportRecordProcessed')
        .map((e) => e.data as ImportRecordProcessed['data'])
        .find((d) => d.sourceId === crm.id(1))!;
      expect(audit).toMatchObject({ sourceVersion: 2, revision: contact.revision, outcome: 'imported' });
    });
  });

  describe('when the page fetched again is the same', () => {
    it('appends nothing more to its contacts and counts them as an uninterrupted run does', async () => {
      const runId = await start();
      const crm = new LiveCrm(`same-${runId.slice(4, 12)}`);
      const deps: RunDriverDeps = { store, sources: () => crm, pageSize: 3, backoffMs: 5, metadata };
      await expect(driveRun({ ...deps, beforeRecordingPage: () => Promise.reject(new Error('killed')) }, runId)).rejects.toThrow();

      const run = await driveRun(deps, runId);

      expect(run).toMatchObject({ status: 'completed', processed: 6, counts: { imported: 6 } });
      for (const i of [0, 1, 2]) expect(await lastVersionOf(contactStream('crm', crm.id(i)))).toEqual({ version: 1, revision: 0 });
      expect((await loadRun(store, runId)).counts).toEqual({ imported: 6 });
    });
  });
});
