/**
 * File imports: an NDJSON or CSV export killed mid-file (SIGKILL, between a slice's contact appends and
 * its recorded outcomes) and imported again ends exactly as an uninterrupted import of the same file on
 * another database; a CSV export imports through `idem sync import`; a changed file is a new run; CSV
 * fields may hold line breaks, a short row is rejected on its own, and a malformed quote stops the run.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { runCli } from '../../../src/cli';
import type { CliContext } from '../../../src/cli/cli-context';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import { createTestDatabase } from '../../../test/harness/test-database';
import { importStream } from '../contact.events';
import { loadRun } from '../pull-run/drive-run';
import { contentHash, importFile } from './import-file';

const ROOT = join(__dirname, '..', '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'idem-file-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true })); // some 30 MB of export files
const metadata = { correlationId: 't', causationId: 't', actor: { role: 'sync', tokenId: 't' } };

/**
 * 4,000 lines for 1,000 contacts, versions shuffled, with re-sent lines, deletes and bad lines. A contact's
 * four lines share its version and event id, so they state one record (a re-send is a duplicate, not a conflict).
 */
function ndjson(): string {
  const lines: string[] = [];
  for (let i = 0; i < 4000; i++) {
    const contact = (i * 7919) % 1000;
    const version = 1 + ((i * 31) % 5);
    if (i % 97 === 0) lines.push('{"sourceId": broken');
    else if (contact % 53 === 0)
      lines.push(JSON.stringify({ sourceId: `f${contact}`, version, eventId: `f${contact}-${version}`, deleted: true }));
    else
      lines.push(
        JSON.stringify({ sourceId: `f${contact}`, version, eventId: `f${contact}-${version}`, fields: { name: `F ${contact}`, version } }),
      );
  }
  return lines.join('\n') + '\n';
}

/**
 * The same 4,000 records as CSV: every fifth record, and the last of every slice of 500 (where a run
 * records its line), has notes over three lines; the broken lines are rows one cell short.
 */
function csv(): string {
  const rows = ['sourceId,version,eventId,deleted,name,notes'];
  for (let i = 0; i < 4000; i++) {
    const contact = (i * 7919) % 1000;
    const version = 1 + ((i * 31) % 5);
    const notes = i % 5 === 0 || i % 500 === 499 ? `"line one of ${contact}\nsaid ""hi"", then\nleft"` : `seen ${contact}`;
    if (i % 97 === 0) rows.push(`f${contact},${version},f${contact}-${version},,F ${contact}`);
    else if (contact % 53 === 0) rows.push(`f${contact},${version},f${contact}-${version},true,,`);
    else rows.push(`f${contact},${version},f${contact}-${version},,F ${contact},${notes}`);
  }
  return rows.join('\n') + '\n';
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
    `SELECT DISTINCT ON (stream_name) stream_name, event_type, data::jsonb - 'runId' AS data FROM idem_events WHERE stream_name LIKE 'contact-crm.f%' ORDER BY stream_name, revision DESC`,
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
  describe.each([
    ['an NDJSON', 'contacts.ndjson', ndjson, /^\{/],
    ['a CSV (with records over several lines)', 'contacts.csv', csv, /^left"$/],
  ])('when %s import is killed mid-file and started again with the same file', (_, name, content, lastRecordedLine) => {
    it('goes on from the last recorded line and ends as an uninterrupted import does', async () => {
      const file = join(dir, name);
      const text = content();
      writeFileSync(file, text);
      const [killed, whole] = await Promise.all([openDb(`file_import_${name}_killed`), openDb(`file_import_${name}_whole`)]);
      try {
        expect(await killedImport(killed.url, file)).toContain('paused');
        const killedRun = await loadRun(killed.store, `file.crm.${(await contentHash(file)).slice(0, 40)}`);
        expect(killedRun.processed).toBe(1500);
        expect(text.split('\n')[Number(killedRun.cursor) - 1]).toMatch(lastRecordedLine);
        const resumed = await importFile({ store: killed.store, source: 'crm', path: file, metadata });
        const uninterrupted = await importFile({ store: whole.store, source: 'crm', path: file, metadata });
        expect(resumed).toMatchObject({ status: 'completed', processed: 4000 });
        expect(resumed.runId).toBe(uninterrupted.runId);
        expect(resumed.counts).toEqual(uninterrupted.counts);
        // 4,000 records in slices of 500, each counted once (the end of the file is no ninth, empty, slice).
        expect([resumed.pages, uninterrupted.pages]).toEqual([8, 8]);
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

  describe('when it is interrupted (Ctrl+C)', () => {
    it('stops once the slice in flight is recorded, and the same file again goes on from there', async () => {
      const file = join(dir, 'interrupted.ndjson');
      writeFileSync(file, ndjson());
      const db = await openDb('file_import_interrupted');
      try {
        const interrupt = new AbortController();
        const options = { store: db.store, source: 'crm', path: file, metadata, sliceSize: 500 };
        const stopped = await importFile({
          ...options,
          signal: interrupt.signal,
          onProgress: ({ run }) => run.processed === 1000 && interrupt.abort(),
        });
        expect(stopped).toMatchObject({ status: 'running', processed: 1000, cursor: '1000' });
        const finished = await importFile(options);
        expect(finished).toMatchObject({ runId: stopped.runId, status: 'completed', processed: 4000 });
        expect(finished.counts.rejected).toBe(Math.ceil(4000 / 97));
      } finally {
        await db.pool.end();
      }
    });
  });

  describe('with NDJSON lines that are no record (not JSON, nested 20,000 levels deep, a prototype-poisoning key, JSON but no object, a name twice)', () => {
    it('rejects each with its line and why, imports the rest and completes', async () => {
      const file = join(dir, 'odd-lines.ndjson');
      const deep = `{"sourceId":"deep","fields":{"a":${'['.repeat(20_000)}${']'.repeat(20_000)}}}`;
      // The keys the push route refuses with 400 REQUEST.FORBIDDEN_KEY, as a file line writes them.
      const proto = '{"sourceId":"pp1","version":1,"fields":{"__proto__":{"isAdmin":true},"name":"x"}}';
      const constructorPrototype = '{"sourceId":"pp2","fields":{"nested":[{"constructor":{"prototype":{"isAdmin":true}}}]}}';
      writeFileSync(
        file,
        [
          JSON.stringify({ sourceId: 'ok-1', fields: { a: 1 } }),
          'not json',
          deep,
          JSON.stringify({ sourceId: 'ok-2', fields: {} }),
          proto,
          constructorPrototype,
          '[1]',
          'null',
          '"c9"',
          '7',
          'false',
          // JSON.parse keeps the last "fields": the push route refuses such a body (400 REQUEST.DUPLICATE_KEY).
          '{"sourceId":"dup","fields":{"name":"a"},"fields":{"name":"b"}}',
        ].join('\n'),
      );
      const db = await openDb('file_import_odd_lines');
      try {
        const run = await importFile({ store: db.store, source: 'crm', path: file, metadata });
        expect(run).toMatchObject({ status: 'completed', processed: 12, counts: { imported: 2, rejected: 10 } });
        const reasons = (await db.store.readStream(importStream(run.runId)))
          .filter((e) => e.type === 'ImportRecordProcessed' && e.data.outcome === 'rejected')
          .map((e) => e.data.reason);
        expect(reasons).toEqual([
          'line 2 is not valid JSON',
          'line 3 nests JSON deeper than 64 levels',
          expect.stringContaining('__proto__ or constructor.prototype key'),
          expect.stringContaining('__proto__ or constructor.prototype key'),
          'line 7 is an array, not a JSON object',
          'line 8 is null, not a JSON object',
          'line 9 is a string, not a JSON object',
          'line 10 is a number, not a JSON object',
          'line 11 is true or false, not a JSON object',
          'line 12 names "fields" twice in one object (at fields)',
        ]);
        expect(await db.store.readStream('contact-crm.dup')).toEqual([]);
        expect(await db.store.readStream('contact-crm.pp1')).toEqual([]);
        expect(await db.store.readStream('contact-crm.pp2')).toEqual([]);
      } finally {
        await db.pool.end();
      }
    });
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

  describe('with CSV records over several lines, a short row and a malformed quote', () => {
    const importCsv = async (db: Awaited<ReturnType<typeof openDb>>, name: string, content: string) => {
      const file = join(dir, name);
      writeFileSync(file, content);
      return importFile({ store: db.store, source: 'crm', path: file, metadata });
    };

    it('imports a quoted field with a line break, doubled quote and comma as one contact, and rejects the short row alone', async () => {
      const db = await openDb('file_import_csv_multiline');
      try {
        const run = await importCsv(
          db,
          'multiline.csv',
          'sourceId,version,name,address\nm1,1,Ada,"12 Main St\nFlat ""B"", 2nd floor"\nm2,1,Bob\nm3,1,Cy,"1 Side St"\n',
        );
        expect(run).toMatchObject({ status: 'completed', processed: 3, counts: { imported: 2, rejected: 1 } });
        const [ada] = await db.store.readStream('contact-crm.m1');
        expect(ada.data.fields).toEqual({ name: 'Ada', address: '12 Main St\nFlat "B", 2nd floor' });
        expect((await db.store.readStream('contact-crm.m3'))[0].data.fields).toEqual({ name: 'Cy', address: '1 Side St' });
        const outcomes = (await db.store.readStream(importStream(run.runId))).filter((e) => e.type === 'ImportRecordProcessed');
        expect(outcomes.map((e) => [e.data.seq, e.data.outcome])).toEqual([
          [0, 'imported'],
          [1, 'rejected'],
          [2, 'imported'],
        ]);
        expect(outcomes[1].data.reason).toMatch(/columns length is 4, got 3 on line 4/);
      } finally {
        await db.pool.end();
      }
    });

    it('stops the run for review at a malformed quote, with the records before it recorded and none after it', async () => {
      const db = await openDb('file_import_csv_bad_quote');
      try {
        const content = 'sourceId,name\nq1,A\nq2,"B"x\nq3,C\n';
        const run = await importCsv(db, 'bad-quote.csv', content);
        expect(run).toMatchObject({ status: 'needs_review', processed: 1, counts: { imported: 1 }, cursor: '2' });
        expect(run.reason).toMatch(/line 3 .*Invalid Closing Quote/);
        expect(await db.store.readStream('contact-crm.q3')).toEqual([]);
        expect(await importCsv(db, 'bad-quote.csv', content)).toEqual(run);
      } finally {
        await db.pool.end();
      }
    });
  });

  describe('with lines no record can come from and files that change', () => {
    const reasonsOf = async (db: Awaited<ReturnType<typeof openDb>>, runId: string) =>
      (await db.store.readStream(importStream(runId)))
        .filter((e) => e.type === 'ImportRecordProcessed' && e.data.outcome === 'rejected')
        .map((e) => [e.data.sourceId, e.data.reason]);

    it('rejects a line longer than the bound while streaming past it, and imports the lines around it', async () => {
      const file = join(dir, 'long-line.ndjson');
      const long = JSON.stringify({ sourceId: 'long', fields: { notes: 'x'.repeat(20 * 1024 * 1024) } });
      writeFileSync(
        file,
        [JSON.stringify({ sourceId: 'before', fields: {} }), long, JSON.stringify({ sourceId: 'after', fields: {} })].join('\n'),
      );
      const db = await openDb('file_import_long_line');
      try {
        const run = await importFile({ store: db.store, source: 'crm', path: file, metadata });
        expect(run).toMatchObject({ status: 'completed', processed: 3, counts: { imported: 2, rejected: 1 } });
        expect(await reasonsOf(db, run.runId)).toEqual([['', 'line 2 is longer than 8388608 bytes']]);
        expect((await db.store.readStream('contact-crm.after')).length).toBe(1);
      } finally {
        await db.pool.end();
      }
    }, 60_000);

    it('rejects a CSV record longer than the bound while streaming past it, and imports the records around it', async () => {
      const file = join(dir, 'long-record.csv');
      const notes = `"${'x'.repeat(4.5 * 1024 * 1024)}\n${'x'.repeat(4.5 * 1024 * 1024)}"`;
      writeFileSync(file, `sourceId,version,notes\nbefore,1,short\nlong,1,${notes}\nafter,1,short\n`);
      const db = await openDb('file_import_long_record');
      try {
        const run = await importFile({ store: db.store, source: 'crm', path: file, metadata });
        expect(run).toMatchObject({ status: 'completed', processed: 3, counts: { imported: 2, rejected: 1 } });
        expect(await reasonsOf(db, run.runId)).toEqual([['', 'the record on lines 3-4 is longer than 1048576 bytes']]);
        expect((await db.store.readStream('contact-crm.after'))[0].data.fields).toEqual({ notes: 'short' });
        expect(await db.store.readStream('contact-crm.long')).toEqual([]);
      } finally {
        await db.pool.end();
      }
    }, 60_000);

    it('imports only the lines that were hashed when the file grows during the import (the grown file is a new run)', async () => {
      const file = join(dir, 'growing.ndjson');
      const line = (id: string) => `${JSON.stringify({ sourceId: id, fields: {} })}\n`;
      writeFileSync(file, line('g1') + line('g2'));
      const db = await openDb('file_import_growing');
      try {
        const run = await importFile({
          store: db.store,
          source: 'crm',
          path: file,
          metadata,
          afterHashing: async () => appendFileSync(file, line('g3')),
        });
        expect(run).toMatchObject({ status: 'completed', processed: 2, counts: { imported: 2 } });
        expect(await db.store.readStream('contact-crm.g3')).toEqual([]);
        const grown = await importFile({ store: db.store, source: 'crm', path: file, metadata });
        expect(grown.runId).not.toBe(run.runId);
        expect(grown).toMatchObject({ status: 'completed', processed: 3, counts: { imported: 1, unchanged: 2 } });
      } finally {
        await db.pool.end();
      }
    });

    it('stops the run for review when the file is rewritten in place with the same size while it is read', async () => {
      const file = join(dir, 'rewritten.ndjson');
      // 1,990 lines of 250 bytes: the reader holds 64 KiB at a time, so most of the file is read after the first slice.
      const notes = 'n'.repeat(200);
      const content = (name: string) =>
        Array.from({ length: 1990 }, (_, i) => `${JSON.stringify({ sourceId: `w${i}`, fields: { name, notes } })}\n`).join('');
      writeFileSync(file, content('before'));
      const db = await openDb('file_import_rewritten');
      try {
        let rewritten = false;
        const run = await importFile({
          store: db.store,
          source: 'crm',
          path: file,
          metadata,
          sliceSize: 100,
          // After the first slice is recorded: same length, other bytes.
          onProgress: () => {
            if (rewritten) return;
            rewritten = true;
            const fd = openSync(file, 'r+');
            writeSync(fd, content('after_'), 0);
            closeSync(fd);
          },
        });
        expect(rewritten).toBe(true);
        expect(run).toMatchObject({ status: 'needs_review', processed: 1900 });
        expect(run.reason).toMatch(/^the file changed while it was being imported/);
        expect(await db.store.readStream('contact-crm.w1989')).toEqual([]);
      } finally {
        await db.pool.end();
      }
    });

    it('reads an NDJSON file that starts with a byte-order mark', async () => {
      const file = join(dir, 'bom.ndjson');
      writeFileSync(file, `\uFEFF${JSON.stringify({ sourceId: 'bom1', fields: {} })}\n`);
      const db = await openDb('file_import_bom');
      try {
        const run = await importFile({ store: db.store, source: 'crm', path: file, metadata });
        expect(run).toMatchObject({ status: 'completed', processed: 1, counts: { imported: 1 } });
      } finally {
        await db.pool.end();
      }
    });

    it('completes a file whose rejected lines quote a NUL or a lone surrogate, auditing them escaped', async () => {
      // No PostgreSQL document holds these characters: quoted as sent in the slice's audit, they made the
      // store refuse the slice after its good records were written, and the run could never finish.
      const file = join(dir, 'unstorable-keys.ndjson');
      writeFileSync(
        file,
        [
          JSON.stringify({ sourceId: 'nul-before', fields: {} }),
          JSON.stringify({ sourceId: 'a\u0000b', fields: {} }),
          JSON.stringify({ sourceId: 'half\ud800', fields: {} }),
          JSON.stringify({ sourceId: 'nul-field', fields: {}, ['x\u0000']: 1 }),
          JSON.stringify({ sourceId: 'nul-after', fields: {} }),
        ].join('\n'),
      );
      const db = await openDb('file_import_unstorable_keys');
      try {
        const run = await importFile({ store: db.store, source: 'crm', path: file, metadata });
        expect(run).toMatchObject({ status: 'completed', processed: 5, counts: { imported: 2, rejected: 3 } });
        const rejected = (await db.store.readStream(importStream(run.runId)))
          .filter((e) => e.type === 'ImportRecordProcessed' && e.data.outcome === 'rejected')
          .map((e) => [e.data.sourceId, e.data.sentSourceId, e.data.reason]);
        expect(rejected).toEqual([
          ['', 'a\\u0000b', expect.stringContaining('sourceId must be')],
          ['', 'half\\ud800', expect.stringContaining('sourceId must be')],
          ['nul-field', undefined, 'unknown field x\\u0000'],
        ]);
      } finally {
        await db.pool.end();
      }
    });

    it('stops for review at a header naming a column with a NUL twice, the reason quoting it escaped', async () => {
      const file = join(dir, 'header-nul.csv');
      writeFileSync(file, 'sourceId,na\u0000me,na\u0000me\nh1,A,B\n');
      const db = await openDb('file_import_header_nul');
      try {
        const run = await importFile({ store: db.store, source: 'crm', path: file, metadata });
        expect(run).toMatchObject({ status: 'needs_review', processed: 0 });
        expect(run.reason).toContain('the header names the column "na\\u0000me" twice');
      } finally {
        await db.pool.end();
      }
    });

    it('imports the bytes of a file first named with the wrong format as a run of their own once it is named right', async () => {
      const content = [JSON.stringify({ sourceId: 'named-1', fields: {} }), JSON.stringify({ sourceId: 'named-2', fields: {} })].join('\n');
      const [asCsv, asNdjson] = [join(dir, 'misnamed.csv'), join(dir, 'renamed.ndjson')];
      writeFileSync(asCsv, content);
      writeFileSync(asNdjson, content);
      const db = await openDb('file_import_misnamed');
      try {
        const wrong = await importFile({ store: db.store, source: 'crm', path: asCsv, metadata });
        expect(wrong).toMatchObject({ status: 'needs_review', processed: 0 });
        const right = await importFile({ store: db.store, source: 'crm', path: asNdjson, metadata });
        expect(right).toMatchObject({ status: 'completed', processed: 2, counts: { imported: 2 } });
        expect(right.runId).not.toBe(wrong.runId);
        // Each name goes on with its own run.
        expect((await importFile({ store: db.store, source: 'crm', path: asCsv, metadata })).runId).toBe(wrong.runId);
        expect(await importFile({ store: db.store, source: 'crm', path: asNdjson, metadata })).toEqual(right);
      } finally {
        await db.pool.end();
      }
    });

    it('reads a version spelled 1.0 or 2e0 as the integer in CSV as in NDJSON, and rejects the same spellings in both', async () => {
      // As written in the file: a JSON number in an NDJSON line, a cell of a CSV row.
      const spellings = ['1.0', '2e0', '30E-1', '-0', '007', '1.5', '-1', '1e400', '9007199254740993', '1.', '0x10', ' 4'];
      const ndjsonFile = join(dir, 'versions.ndjson');
      const csvFile = join(dir, 'versions.csv');
      writeFileSync(ndjsonFile, spellings.map((v, i) => `{"sourceId":"v${i}","version":${v},"fields":{}}`).join('\n'));
      writeFileSync(csvFile, ['sourceId,version,name', ...spellings.map((v, i) => `v${i},${v},x`)].join('\n'));
      const db = await openDb('file_import_versions');
      try {
        const seen = async (path: string) => {
          const run = await importFile({ store: db.store, source: 'crm', path, metadata });
          return (await db.store.readStream(importStream(run.runId)))
            .filter((e) => e.type === 'ImportRecordProcessed')
            .map((e) => {
              const { outcome, sourceVersion } = e.data as { outcome: string; sourceVersion?: number };
              return outcome === 'rejected' ? 'rejected' : sourceVersion;
            });
        };
        const ndjsonSeen = await seen(ndjsonFile);
        const csvSeen = await seen(csvFile);
        // JSON has no spelling 007, 1., 0x10 or " 4" for a number: those lines are no JSON. A cell is text,
        // read as a number only in JSON's syntax (leading zeros allowed, as spreadsheets pad).
        expect(ndjsonSeen).toEqual([1, 2, 3, 0, 'rejected', 'rejected', 'rejected', 'rejected', 'rejected', 'rejected', 'rejected', 4]);
        expect(csvSeen).toEqual([1, 2, 3, 0, 7, 'rejected', 'rejected', 'rejected', 'rejected', 'rejected', 'rejected', 'rejected']);
      } finally {
        await db.pool.end();
      }
    });

    it('keeps the sourceId of a CSV row with the wrong number of cells on its rejection', async () => {
      const file = join(dir, 'short-row.csv');
      writeFileSync(file, 'sourceId,name,email\nrow1,Ada\nrow2,Bob,b@x.example\n');
      const db = await openDb('file_import_short_row');
      try {
        const run = await importFile({ store: db.store, source: 'crm', path: file, metadata });
        expect(run).toMatchObject({ status: 'completed', processed: 2, counts: { imported: 1, rejected: 1 } });
        expect(await reasonsOf(db, run.runId)).toEqual([['row1', expect.stringMatching(/Invalid Record Length.*on line 2/)]]);
      } finally {
        await db.pool.end();
      }
    });
  });
});
