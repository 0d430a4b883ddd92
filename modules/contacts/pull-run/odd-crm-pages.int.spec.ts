/**
 * A pull run against a CRM answering pages that JSON.parse reads differently from what they say, or
 * that nest deeper than any record may (a stub CRM on a free port, serving fixed page texts through
 * the real HTTP adapter). A record repeating a name in one object is `rejected` as a file's line is
 * (JSON.parse kept the last value silently, and imported it); a record nested thousands deep is
 * `rejected` (the checks overflowed the stack, and the run stayed `running` with its page unrecorded);
 * a page repeating a name of its envelope is never imported, and the run stops for review.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import { createTestDatabase } from '../../../test/harness/test-database';
import { contactStream, importStream, type ImportRecordProcessed } from '../contact.events';
import { SandboxCrmContactSource } from '../contact-source/sandbox-crm.contact-source';
import { driveRun, type RunDriverDeps } from './drive-run';
import { startRun } from './start-run';

let pool: Pool;
let store: PostgresEventStore;
let crm: Server;
let crmUrl: string;
/** The page text the stub CRM answers for any cursor. */
let pageText = '';

beforeAll(async () => {
  const url = await createTestDatabase('contacts_pull_odd_pages');
  pool = new Pool({ connectionString: url, max: 4 });
  store = new PostgresEventStore(pool);
  await store.migrate();
  crm = createServer((_request, response) => response.setHeader('content-type', 'application/json').end(pageText));
  await new Promise<void>((resolve) => crm.listen(0, '127.0.0.1', resolve));
  crmUrl = `http://127.0.0.1:${(crm.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => crm.close(resolve));
  await pool.end();
});

async function pull(text: string) {
  pageText = text;
  const source = new SandboxCrmContactSource('crm', crmUrl, 5_000);
  const deps: RunDriverDeps = {
    store,
    sources: (name) => (name === 'crm' ? source : undefined),
    backoffMs: 1,
    metadata: { correlationId: 'test', causationId: 'test', actor: { role: 'sync', tokenId: 'test' } },
  };
  const runId = await startRun(store, { source: 'crm', startedBy: 'test', kind: 'pull' }, deps.metadata);
  const run = await driveRun(deps, runId);
  const events = await store.readStream(importStream(runId));
  const outcomes = events
    .filter((e) => e.type === 'ImportRecordProcessed')
    .map((e) => e.data as ImportRecordProcessed['data'])
    .map(({ sourceId, outcome, reason }) => ({ sourceId, outcome, ...(reason ? { reason } : {}) }));
  return { run, outcomes };
}

const written = async (sourceId: string) => (await store.readStream(contactStream('crm', sourceId))).length;

describe('a pull run', () => {
  describe('when a page holds a record that names a key twice in one object', () => {
    it('rejects that record with the key and its path, imports the others and completes', async () => {
      const { run, outcomes } = await pull(
        '{"contacts":[{"sourceId":"dup-a","version":1,"fields":{"email":"a@x","email":"b@x"}},' +
          '{"sourceId":"dup-b","sourceId":"dup-c","version":1,"fields":{}},' +
          '{"sourceId":"dup-ok","version":1,"fields":{"email":"ok@x"}}],"nextCursor":null}',
      );
      expect(run.status).toBe('completed');
      expect(outcomes).toEqual([
        { sourceId: '', outcome: 'rejected', reason: 'record 1 of the page names "email" twice in one object (at fields.email)' },
        { sourceId: '', outcome: 'rejected', reason: 'record 2 of the page names "sourceId" twice in one object (at sourceId)' },
        { sourceId: 'dup-ok', outcome: 'imported' },
      ]);
      expect([await written('dup-a'), await written('dup-b'), await written('dup-c')]).toEqual([0, 0, 0]);
    });
  });

  describe('when a page names a key of its envelope twice', () => {
    it('imports nothing of the page and stops for review with the key', async () => {
      const { run, outcomes } = await pull(
        '{"contacts":[{"sourceId":"env-a","version":1,"fields":{"a":1,"a":2}}],"nextCursor":"p2","nextCursor":null}',
      );
      expect(run.status).toBe('needs_review');
      expect(run.reason).toContain('answered a page that names nextCursor twice');
      expect(outcomes).toEqual([]);
      expect(await written('env-a')).toBe(0);
    });
  });

  describe('when a page holds a record nested thousands of levels deep', () => {
    it('rejects that record, imports the others and completes', async () => {
      const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
      const { run, outcomes } = await pull(
        `{"contacts":[{"sourceId":"deep-a","version":1,"fields":{"a":${deep}}},{"sourceId":"deep-ok","version":1,"fields":{}}],"nextCursor":null}`,
      );
      expect(run.status).toBe('completed');
      expect(outcomes).toEqual([
        { sourceId: 'deep-a', outcome: 'rejected', reason: 'record 1 of the page nests JSON deeper than 64 levels' },
        { sourceId: 'deep-ok', outcome: 'imported' },
      ]);
      expect(await written('deep-a')).toBe(0);
    });
  });
});
