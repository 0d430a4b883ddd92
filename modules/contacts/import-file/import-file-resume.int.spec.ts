/**
 * A file import killed at a late slice and started again opens the file where its run recorded that the
 * file goes on: it parses no line it recorded before (the file is read for parsing from the first byte
 * of the first unrecorded line; before that only less than one hash block is read again, to hash it),
 * and it ends as an uninterrupted import of the same file on another database does — for NDJSON and for
 * CSV whose records hold quoted line breaks (the recorded place is a record boundary, never a line
 * inside a quote). A run recorded before runs recorded places goes on from its cursor, reading the file
 * from the start; a file rewritten in place after the hashing of a resumed import still stops the run.
 */
import { createReadStream, mkdtempSync, openSync, rmSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import { createTestDatabase } from '../../../test/harness/test-database';
import { importStream } from '../contact.events';
import type { ImportRunState } from '../import-run.state';
import { loadRun } from '../pull-run/drive-run';
import type { FileOpener } from './file-records';
import { HASH_BLOCK } from './file-hash';
import { importFile } from './import-file';

const dir = mkdtempSync(join(tmpdir(), 'idem-file-resume-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const metadata = { correlationId: 't', causationId: 't', actor: { role: 'sync', tokenId: 't' } };
const RECORDS = 4000;
const SLICE = 500;
/** Killed before recording its 7th slice: 3,000 records recorded, the file well past the first hash block. */
const KILLED_AT_SLICE = 7;
const padding = 'p'.repeat(200);

/** A file's rows as written (one a line, CSV's header first; a CSV record's line breaks inside it), and how many head it. */
interface Rows {
  rows: string[];
  header: number;
}
const textOf = ({ rows }: Rows) => rows.join('\n') + '\n';
/** The byte the row after the first `records` records starts at. */
const byteAfterRecords = ({ rows, header }: Rows, records: number) =>
  Buffer.byteLength(textOf({ rows: rows.slice(0, header + records), header }));

/** 4,000 records for 1,000 contacts, with re-sends, deletes and broken lines, some 1 MB. */
function ndjson(): Rows {
  const lines: string[] = [];
  for (let i = 0; i < RECORDS; i++) {
    const contact = (i * 7919) % 1000;
    const version = 1 + ((i * 31) % 5);
    if (i % 97 === 0) lines.push('{"sourceId": broken');
    else if (contact % 53 === 0)
      lines.push(JSON.stringify({ sourceId: `r${contact}`, version, eventId: `r${contact}-${version}`, deleted: true }));
    else lines.push(JSON.stringify({ sourceId: `r${contact}`, version, eventId: `r${contact}-${version}`, fields: { version, padding } }));
  }
  return { rows: lines, header: 0 };
}

/** The same as CSV, each record with notes over three lines (one break a CRLF), so every slice ends inside quotes' reach. */
function csv(): Rows {
  const rows = ['sourceId,version,eventId,deleted,notes,padding'];
  for (let i = 0; i < RECORDS; i++) {
    const contact = (i * 7919) % 1000;
    const version = 1 + ((i * 31) % 5);
    const notes = `"one ${contact}\nsaid ""hi""\r\nleft"`;
    if (i % 97 === 0) rows.push(`r${contact},${version},r${contact}-${version},,${notes}`);
    else if (contact % 53 === 0) rows.push(`r${contact},${version},r${contact}-${version},true,,`);
    else rows.push(`r${contact},${version},r${contact}-${version},,${notes},${padding}`);
  }
  return { rows, header: 1 };
}

async function openDb(label: string) {
  const pool = new Pool({ connectionString: await createTestDatabase(label), max: 8 });
  const store = new PostgresEventStore(pool);
  await store.migrate();
  return { pool, store };
}
type Db = Awaited<ReturnType<typeof openDb>>;

/** Each contact's last event (without the run that wrote it) and how many contact events there are. */
async function outcome(db: Db) {
  const { rows } = await db.pool.query(
    `SELECT DISTINCT ON (stream_name) stream_name, event_type, data::jsonb - 'runId' AS data FROM idem_events WHERE stream_name LIKE 'contact-crm.r%' ORDER BY stream_name, revision DESC`,
  );
  const revisions = await db.pool.query(`SELECT count(*)::int AS n FROM idem_events WHERE stream_name LIKE 'contact-crm.r%'`);
  return { contacts: rows, revisions: revisions.rows[0].n as number };
}

/** Every range the import opened, and how many bytes it read from each. */
function countingOpener() {
  const reads: Array<{ start: number; end: number; bytes: number }> = [];
  const open: FileOpener = (path, range) => {
    const read = { ...range, bytes: 0 };
    reads.push(read);
    const stream = createReadStream(path, range);
    stream.on('data', (chunk) => (read.bytes += chunk.length));
    return stream;
  };
  return { reads, open };
}

/** An import that dies after importing its n-th slice, before recording it (as a SIGKILL there leaves the run). */
async function killedImport(db: Db, path: string): Promise<ImportRunState> {
  let slices = 0;
  const dying = importFile({
    store: db.store,
    source: 'crm',
    path,
    metadata,
    sliceSize: SLICE,
    beforeRecordingSlice: async () => {
      if (++slices === KILLED_AT_SLICE) throw new Error('killed');
    },
  });
  await expect(dying).rejects.toThrow('killed');
  const runs = await db.pool.query<{ stream_name: string }>(
    `SELECT DISTINCT stream_name FROM idem_events WHERE stream_name LIKE 'import-file.%'`,
  );
  return loadRun(db.store, runs.rows[0].stream_name.slice('import-'.length));
}

describe('importFile resumed after a kill at a late slice', () => {
  describe.each([
    ['NDJSON', 'late.ndjson', ndjson],
    ['CSV with quoted line breaks', 'late.csv', csv],
  ])('of %s', (label, name, content) => {
    it('opens the file at the first unrecorded line, parses nothing before it, and ends as an uninterrupted import', async () => {
      const path = join(dir, name);
      const rows = content();
      const text = textOf(rows);
      writeFileSync(path, text);
      const [killed, whole] = await Promise.all([openDb(`resume_${label}_killed`), openDb(`resume_${label}_whole`)]);
      try {
        const before = await killedImport(killed, path);
        expect(before).toMatchObject({ status: 'running', processed: (KILLED_AT_SLICE - 1) * SLICE });
        const place = byteAfterRecords(rows, before.processed);
        expect(before.fileResumeAt).toMatchObject({ byte: place, line: Number(before.cursor) + 1 });
        expect(place).toBeGreaterThan(2 * HASH_BLOCK);

        const { reads, open } = countingOpener();
        const resumed = await importFile({ store: killed.store, source: 'crm', path, metadata, sliceSize: SLICE, open });
        // Parsed from the place on, and only that; before it, less than a block read again to be hashed.
        const parsed = reads.filter((r) => r.start === place);
        const hashedOnly = reads.filter((r) => r.start !== place);
        expect(parsed).toEqual([{ start: place, end: text.length - 1, bytes: text.length - place }]);
        expect(hashedOnly).toEqual([{ start: place - (place % HASH_BLOCK), end: place - 1, bytes: place % HASH_BLOCK }]);

        const uninterrupted = await importFile({ store: whole.store, source: 'crm', path, metadata, sliceSize: SLICE });
        expect(resumed).toMatchObject({ status: 'completed', processed: RECORDS, pages: RECORDS / SLICE });
        expect(resumed.runId).toBe(uninterrupted.runId);
        expect(resumed.counts).toEqual(uninterrupted.counts);
        const [a, b] = await Promise.all([outcome(killed), outcome(whole)]);
        expect(a).toEqual(b);
        expect(a.contacts).toHaveLength(1000);
      } finally {
        await Promise.all([killed.pool.end(), whole.pool.end()]);
      }
    }, 120_000);
  });

  describe('when its run was recorded before runs recorded where the file goes on', () => {
    it('reads the file from the start, skips what is recorded, and ends as an uninterrupted import', async () => {
      const path = join(dir, 'old.csv');
      writeFileSync(path, textOf(csv()));
      const [killed, whole] = await Promise.all([openDb('resume_old_killed'), openDb('resume_old_whole')]);
      try {
        const before = await killedImport(killed, path);
        // As the import recorded its slices before: no place in any ImportPageFetched (nor the run's
        // totals, which slices came to carry after their places, with the place among them).
        await killed.pool.query(
          `UPDATE idem_events SET data = (data::jsonb - 'resumeAt' - 'run')::json WHERE stream_name = $1 AND event_type = 'ImportPageFetched'`,
          [importStream(before.runId)],
        );
        const fresh = new PostgresEventStore(killed.pool);
        expect((await loadRun(fresh, before.runId)).fileResumeAt).toBeUndefined();

        const { reads, open } = countingOpener();
        const resumed = await importFile({ store: fresh, source: 'crm', path, metadata, sliceSize: SLICE, open });
        expect(reads.map((r) => r.start)).toEqual([0]);
        const uninterrupted = await importFile({ store: whole.store, source: 'crm', path, metadata, sliceSize: SLICE });
        expect(resumed).toMatchObject({ status: 'completed', processed: RECORDS, counts: uninterrupted.counts });
        expect(await outcome(killed)).toEqual(await outcome(whole));
      } finally {
        await Promise.all([killed.pool.end(), whole.pool.end()]);
      }
    }, 120_000);
  });

  describe.each([
    ['after the place', (place: number) => place + 10],
    ['between the hash block start and the place', (place: number) => place - 10],
  ])('when the file is rewritten in place (same size) %s once it is hashed', (_, at) => {
    it('stops the run for review at its end instead of completing it', async () => {
      const path = join(dir, `rewritten-${at(1000)}.ndjson`);
      const text = textOf(ndjson());
      writeFileSync(path, text);
      const db = await openDb(`resume_rewritten_${at(1000)}`);
      try {
        const before = await killedImport(db, path);
        const byte = at(before.fileResumeAt!.byte);
        const rewrite = async () => {
          const fd = openSync(path, 'r+');
          writeSync(fd, text[byte] === 'x' ? 'y' : 'x', byte);
          closeSync(fd);
        };
        const resumed = await importFile({ store: db.store, source: 'crm', path, metadata, sliceSize: SLICE, afterHashing: rewrite });
        expect(resumed.status).toBe('needs_review');
        expect(resumed.reason).toMatch(/the file changed while it was being imported/);
      } finally {
        await db.pool.end();
      }
    }, 120_000);
  });
});
