/**
 * File imports: an NDJSON export killed mid-file (SIGKILL, between a slice's contact appends and its
 * recorded outcomes) and imported again ends exactly as an uninterrupted import of the same file on
 * another database; a CSV export imports through `idem sync import`; a changed file is a new run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { runCli } from '../../../src/cli';
import type { CliContext } from '../../../src/cli/cli-context';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import { createTestDatabase } from '../../../test/harness/test-database';
import { importFile } from './import-file';

const ROOT = join(__dirname, '..', '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'idem-file-import-'));
const metadata = { correlationId: 't', causationId: 't', actor: { role: 'sync', tokenId: 't' } };

/** 4,000 lines for 1,000 contacts, versions shuffled, with re-sent lines, deletes and bad lines. */
function ndjson(): string {
  const lines: string[] = [];
  for (let i = 0; i < 4000; i++) {
    const contact = (i * 7919) % 1000;
    const version = 1 + ((i * 31) % 5);
    if (i % 97 === 0) lines.push('{"sourceId": broken');
    else if (i % 53 === 0)
      lines.push(JSON.stringify({ sourceId: `f${contact}`, version, eventId: `f${contact}-${version}`, deleted: true }));
    else
      lines.push(
        JSON.stringify({ sourceId: `f${contact}`, version, eventId: `f${contact}-${version}`, fields: { name: `F ${contact}`, version } }),
      );
  }
  return lines.join('\n') + '\n';
}

async function openDb(label: string) {
  const url = await createTestDatabase(label);
  const pool = new Pool({ connectionString: url, max: 8 });
  const store = new PostgresEventStore(pool);
  await store.migrate();
  return { url, pool, store };
}

/** Each contact's last event (without the run that wrote it) and the run's counts. */
async function outcome(db: Awaited<ReturnType<typeof openDb>>) {
  const { rows } = await db.pool.query(
    `SELECT DISTINCT ON (stream_name) stream_name, event_type, data - 'runId' AS data FROM idem_events WHERE stream_name LIKE 'contact-crm.f%' ORDER BY stream_name, revision DESC`,
  );
  const revisions = await db.pool.query(`SELECT count(*)::int AS n FROM idem_events WHERE stream_name LIKE 'contact-crm.f%'`);
  return { contacts: rows, revisions: revisions.rows[0].n };
}

function killedImport(url: string, file: string): Promise<string> {
  const child = spawn(process.execPath, ['-r', join(ROOT, 'bench', 'lib', 'register.js'), join(__dirname, 'import-file.process.ts')], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url, FILE: file, PAUSE_AT_SLICE: '4', SLICE_SIZE: '500' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (out.includes('paused')) child.kill('SIGKILL');
  });
  return new Promise((resolve) => child.once('exit', () => resolve(out)));
}

describe('idem sync import', () => {
  describe('when an NDJSON import is killed mid-file and started again with the same file', () => {
    it('goes on from the last recorded line and ends as an uninterrupted import does', async () => {
      const file = join(dir, 'contacts.ndjson');
      writeFileSync(file, ndjson());
      const [killed, whole] = await Promise.all([openDb('file_import_killed'), openDb('file_import_whole')]);
      try {
        expect(await killedImport(killed.url, file)).toContain('paused');
        const resumed = await importFile({ store: killed.store, source: 'crm', path: file, metadata });
        const uninterrupted = await importFile({ store: whole.store, source: 'crm', path: file, metadata });
        expect(resumed).toMatchObject({ status: 'completed', processed: 4000 });
        expect(resumed.runId).toBe(uninterrupted.runId);
        expect(resumed.counts).toEqual(uninterrupted.counts);
        expect(resumed.counts.rejected).toBe(Math.ceil(4000 / 97));
        const [a, b] = await Promise.all([outcome(killed), outcome(whole)]);
        expect(a.contacts).toEqual(b.contacts);
        expect(a.revisions).toBe(b.revisions);
        expect(a.contacts.length).toBe(1000);

        // The same file once more: the run is done, nothing is imported again.
        expect(await importFile({ store: killed.store, source: 'crm', path: file, metadata })).toEqual(resumed);
      } finally {
        await Promise.all([killed.pool.end(), whole.pool.end()]);
      }
    }, 120_000);
  });

  describe('with a CSV export through the command line', () => {
    it('imports its records, reports the run on stdout, and treats a changed file as a new run', async () => {
      const db = await openDb('file_import_csv');
      const file = join(dir, 'contacts.csv');
      writeFileSync(
        file,
        'sourceId,version,updatedAt,email,name\ncsv1,1,2026-12-01T10:00:00Z,a@x.example,"Ada, Countess"\ncsv2,2,,b@x.example,"Bob ""B"""\n,3,,c@x.example,no id\n',
      );
      const cli = async (...args: string[]) => {
        let stdout = '';
        const context: CliContext = {
          readModels: [],
          reactors: [],
          config: () => ({}) as never,
          runtime: async () => ({ pool: db.pool, store: db.store, databaseUrl: db.url }),
          stdout: { write: (s: string) => ((stdout += s), true) } as NodeJS.WritableStream,
          stderr: { write: () => true } as unknown as NodeJS.WritableStream,
          exitCode: 0,
        };
        const code = await runCli(args, context);
        return { code, stdout };
      };
      const run = async () => {
        const { code, stdout } = await cli('sync', 'import', file, '--source', 'crm');
        return { code, view: JSON.parse(stdout.trim().split('\n').at(-1)!) };
      };
      try {
        const first = await run();
        expect(first.code).toBe(0);
        expect(first.view).toMatchObject({ kind: 'file', status: 'completed', processed: 3, counts: { imported: 2, rejected: 1 } });
        const [contact] = await db.store.readStream('contact-crm.csv1');
        expect(contact.data).toMatchObject({
          sourceVersion: 1,
          sourceUpdatedAt: '2026-12-01T10:00:00Z',
          fields: { email: 'a@x.example', name: 'Ada, Countess' },
        });
        expect((await db.store.readStream('contact-crm.csv2'))[0].data.fields).toEqual({ email: 'b@x.example', name: 'Bob "B"' });

        writeFileSync(file, 'sourceId,version,name\ncsv1,2,Ada L.\n');
        const second = await run();
        expect(second.view.runId).not.toBe(first.view.runId);
        expect(second.view).toMatchObject({ status: 'completed', counts: { updated: 1 } });

        const status = await cli('sync', 'status', first.view.runId);
        expect(JSON.parse(status.stdout)).toEqual(first.view);
        expect((await cli('sync', 'resume', first.view.runId)).code).toBe(2);
      } finally {
        await db.pool.end();
      }
    });
  });
});
