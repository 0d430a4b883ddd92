/**
 * Tamper evidence, end to end on real PostgreSQL: a database (event store, registry, audit tables) holding a small interleaved
 * history of three streams, linked by the audit_chain projector with a seal every 4 events, then
 * tampered with straight in PostgreSQL, as someone with access to the database would. `verify` (the
 * whole history and one stream) must name the first break; an export must verify offline and fail
 * once edited.
 */
import { randomUUID } from 'node:crypto';
import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chainHash, eventHash } from '../../projections/audit-chain/chain-hash';
import type { EventStore, ReadStreamOptions } from '../../src/event-store/event-store.port';
import type { ProjectionDatabase } from '../../test/projections/projection-harness';
import { appendEvents, chainedHistory, EVENT_COUNT, firstBreak, idem, linkChain, tamper } from '../../test/harness/audit-history';
import { SEAL_STREAM } from './ledger-sealed.events';
import type { VerifyReport } from './verify-history/chain-break';
import { verifyHistory, verifyStream } from './verify-history/verify-history';

const SEAL_EVERY = 4;
describe('the audit chain over an untouched history', () => {
  let db: ProjectionDatabase;
  let dir: string;
  beforeAll(async () => {
    db = await chainedHistory('audit_untouched', SEAL_EVERY);
    dir = await mkdtemp(join(tmpdir(), 'idem-audit-'));
  });
  afterAll(async () => {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('verifies every event and every seal, and each stream on its own', async () => {
    const report = await verifyHistory(db);
    expect(report).toEqual({
      ok: true,
      checked: EVENT_COUNT,
      sealsChecked: 2,
      unchained: 0,
      digest: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    for (const [stream, revisions] of [
      ['order-a', 4],
      ['order-b', 4],
      ['contact-crm.1', 3],
    ] as const)
      expect(await verifyStream(db, stream)).toEqual({ ok: true, checked: revisions, sealsChecked: 0, unchained: 0 });
  });

  it('keeps the chain append-only: its rows refuse UPDATE and DELETE', async () => {
    await expect(db.pool.query(`UPDATE audit_chain SET event_hash = 'x' WHERE event_number = 1`)).rejects.toThrow(/append-only/);
    await expect(db.pool.query(`DELETE FROM audit_seals`)).rejects.toThrow(/append-only/);
  });

  it('exits 0 from `idem audit verify` with the report on stdout', async () => {
    const verify = await idem(db, 'audit', 'verify');
    expect(verify.code).toBe(0);
    expect(JSON.parse(verify.out)).toMatchObject({ ok: true, checked: EVENT_COUNT });
  });

  describe('an export', () => {
    let file: string;
    let exported: { events: number; seals: number; digest: string };
    beforeAll(async () => {
      file = join(dir, 'history.ndjson');
      const run = await idem(db, 'audit', 'export', file);
      expect(run.code).toBe(0);
      exported = JSON.parse(run.out);
    });

    it('holds every chained event and seal, and verifies offline to the chain head digest', async () => {
      expect(exported).toMatchObject({ events: EVENT_COUNT, seals: 2 });
      const verify = await idem(db, 'audit', 'verify-file', file);
      expect(verify.code).toBe(0);
      expect(JSON.parse(verify.out)).toEqual({ ok: true, checked: EVENT_COUNT, sealsChecked: 2, unchained: 0, digest: exported.digest });
      expect(exported.digest).toBe((await verifyHistory(db)).digest);
    });

    it('is never written over an existing file, and says so with the way out', async () => {
      const before = await readFile(file, 'utf8');
      const again = await idem(db, 'audit', 'export', file);
      expect(again).toMatchObject({
        code: 2,
        err:
          `idem: ${file} already exists, and idem audit export never writes over a file` +
          ' (an earlier export must stay as it was): give a path that does not exist yet\n',
      });
      expect(await readFile(file, 'utf8')).toBe(before);
    });

    it('says in one line when the file cannot be created, with exit code 2', async () => {
      // Found black-box: a path in a directory that does not exist printed Node's
      // `idem: ENOENT: no such file or directory, open '…'`.
      const nowhere = join(dir, 'no-such-directory', 'history.ndjson');
      expect(await idem(db, 'audit', 'export', nowhere)).toMatchObject({
        code: 2,
        err: `idem: cannot write ${nowhere}: its directory does not exist\n`,
      });
      const inAFile = join(file, 'history.ndjson');
      expect(await idem(db, 'audit', 'export', inAFile)).toMatchObject({
        code: 2,
        err: `idem: cannot write ${inAFile}: a part of its path is not a directory\n`,
      });
    });

    it('removes what it wrote when it fails, so the same command can run again', async () => {
      const retried = join(dir, 'retried.ndjson');
      jest.spyOn(db.pool, 'query').mockRejectedValueOnce(new Error('connection lost') as never);
      const failed = await idem(db, 'audit', 'export', retried);
      expect(failed).toMatchObject({ code: 2, err: expect.stringContaining('connection lost') });
      await expect(access(retried)).rejects.toThrow('ENOENT');
      expect((await idem(db, 'audit', 'export', retried)).code).toBe(0);
    });

    async function editedCopy(edit: (lines: string[]) => string[]): Promise<VerifyReport> {
      const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
      const edited = join(dir, `edited-${randomUUID()}.ndjson`);
      await writeFile(edited, `${edit(lines).join('\n')}\n`);
      const verify = await idem(db, 'audit', 'verify-file', edited);
      expect(verify.code).toBe(1);
      return JSON.parse(verify.out) as VerifyReport;
    }
    const isEventOf = (line: string, stream: string, revision: number) => {
      const parsed = JSON.parse(line);
      return parsed.kind === 'event' && parsed.stream === stream && parsed.revision === revision;
    };

    it('fails once an event line is edited, at that event', async () => {
      const report = await editedCopy((lines) => lines.map((line) => (isEventOf(line, 'order-b', 1) ? line.replace('#1', '#9') : line)));
      expect(report).toMatchObject(firstBreak('rewritten', 'order-b', 1));
    });

    it('fails once an event line is removed, where its stream skips a revision', async () => {
      const report = await editedCopy((lines) => lines.filter((line) => !isEventOf(line, 'order-a', 1)));
      expect(report).toMatchObject({ ok: false, firstBreak: expect.objectContaining({ kind: 'missing' }) });
    });

    it('fails once two event lines are swapped, as reordered at the one that came late', async () => {
      const report = await editedCopy((lines) => {
        const first = lines.findIndex((line) => JSON.parse(line).kind === 'event');
        return [...lines.slice(0, first), lines[first + 1], lines[first], ...lines.slice(first + 2)];
      });
      expect(report).toMatchObject({ ok: false, checked: 0, firstBreak: expect.objectContaining({ kind: 'reordered' }) });
    });

    describe("once an event line is given another position (positions are the store's, outside the hashes)", () => {
      /** The event line of `order-b@1` with its position set, in a file whose lines around it are events. */
      const withPosition = (position: string) => (lines: string[]) =>
        lines.map((line) => (isEventOf(line, 'order-b', 1) ? JSON.stringify({ ...JSON.parse(line), position }) : line));

      it('fails where the position does not rise above the event before it, as 1/1 does', async () => {
        const report = await editedCopy(withPosition('1/1'));
        expect(report).toMatchObject(firstBreak('reordered', 'order-b', 1));
        expect(report.firstBreak?.detail).toMatch(/at position 1\/1, not after \d+\/\d+ of the event before it/);
      });

      it('fails where the position is no position at all', async () => {
        const report = await editedCopy(withPosition('yesterday'));
        expect(report).toMatchObject(firstBreak('rewritten', 'order-b', 1));
        expect(report.firstBreak?.detail).toContain('has no store position: "yesterday"');
      });
    });

    it('fails once the file is cut short', async () => {
      const report = await editedCopy((lines) => lines.slice(0, 5));
      expect(report).toMatchObject({ ok: false, checked: 4, firstBreak: expect.objectContaining({ kind: 'missing' }) });
    });
  });

  it('stops a whole-history verification once its signal aborts, reporting nothing as ok', async () => {
    await expect(verifyHistory(db, AbortSignal.abort(new Error('the client left')))).rejects.toThrow('the client left');
  });

  it('stops between the streams whose links it reads once its signal aborts, not after reading them all', async () => {
    const controller = new AbortController();
    const linksRead: string[] = [];
    const readStream = db.store.readStream.bind(db.store);
    // The links are checked last, each stream read whole (seal-ledger is read first, for its seals): the signal comes while the first is read.
    const store: EventStore = Object.assign(Object.create(db.store) as EventStore, {
      readStream: (stream: string, options?: ReadStreamOptions) => {
        if (stream !== SEAL_STREAM) {
          controller.abort(new Error('interrupted (SIGTERM)'));
          linksRead.push(stream);
        }
        return readStream(stream, options);
      },
    });
    await expect(verifyHistory({ store, pool: db.pool }, controller.signal)).rejects.toThrow('interrupted (SIGTERM)');
    expect(linksRead).toHaveLength(1);
  });

  it('refuses to verify a stream the history never held, in `verifyStream` and `idem audit verify --stream`', async () => {
    await expect(verifyStream(db, 'nope-x')).rejects.toMatchObject({ kind: 'not_found', code: 'STREAM.NOT_FOUND' });
    const verify = await idem(db, 'audit', 'verify', '--stream', 'nope-x');
    expect(verify.code).not.toBe(0);
    expect(verify.out).toBe('');
    expect(verify.err).toContain('holds no stream nope-x');
  });

  it('counts events stored after the chain ends as unchained, not as breaks, until the projector links them', async () => {
    await appendEvents(db.store, 'order-z', 2);
    expect(await verifyHistory(db)).toMatchObject({ ok: true, checked: EVENT_COUNT, unchained: 2 });
    expect(await verifyStream(db, 'order-z')).toMatchObject({ ok: true, checked: 0, unchained: 2 });
    await linkChain(db, SEAL_EVERY);
    expect(await verifyHistory(db)).toMatchObject({ ok: true, checked: EVENT_COUNT + 2, unchained: 0 });
  });
});

describe('the audit chain over a tampered history', () => {
  let db: ProjectionDatabase;
  beforeEach(async () => {
    db = await chainedHistory('audit_tampered', SEAL_EVERY);
  });
  afterEach(() => db.close());

  it('reports an event whose data was changed as rewritten, there and in its stream', async () => {
    await tamper.rewriteData(db, 'order-b', 1);
    expect(await verifyHistory(db)).toMatchObject({ ...firstBreak('rewritten', 'order-b', 1), checked: 2 });
    expect(await verifyStream(db, 'order-b')).toMatchObject(firstBreak('rewritten', 'order-b', 1));
    expect(await verifyStream(db, 'order-a')).toMatchObject({ ok: true });
  });

  it('reports a deleted event as missing', async () => {
    await tamper.deleteEvent(db, 'order-a', 1);
    expect(await verifyHistory(db)).toMatchObject({ ...firstBreak('missing', 'order-a', 1), checked: 3 });
    expect(await verifyStream(db, 'order-a')).toMatchObject(firstBreak('missing', 'order-a', 1));
  });

  it('reports two swapped revisions as reordered, at the first of them', async () => {
    await tamper.swapRevisions(db, 'order-a', 1, 2);
    expect(await verifyHistory(db)).toMatchObject(firstBreak('reordered', 'order-a', 1));
    expect(await verifyStream(db, 'order-a')).toMatchObject(firstBreak('reordered', 'order-a', 1));
  });

  it('reports a removed stream as missing from its first event, and `idem audit verify` exits 1', async () => {
    await tamper.deleteStream(db, 'contact-crm.1');
    expect(await verifyHistory(db)).toMatchObject({ ...firstBreak('missing', 'contact-crm.1', 0), checked: 4 });
    expect(await verifyStream(db, 'contact-crm.1')).toMatchObject(firstBreak('missing', 'contact-crm.1', 0));
    const verify = await idem(db, 'audit', 'verify', '--stream', 'contact-crm.1');
    expect(verify.code).toBe(1);
    expect(JSON.parse(verify.out)).toMatchObject(firstBreak('missing', 'contact-crm.1', 0));
  });

  it('reports an event slipped in before the chain ends as extra', async () => {
    await tamper.forgeEventBeforeAll(db, 'order-forged');
    expect(await verifyHistory(db)).toMatchObject({ ...firstBreak('extra', 'order-forged', 0), checked: 0 });
    expect(await verifyStream(db, 'order-forged')).toMatchObject(firstBreak('extra', 'order-forged', 0));
  });

  it('catches an event rewritten together with its chain entry at the next seal', async () => {
    await tamper.rewriteData(db, 'order-a', 3); // event 8, sealed by the seal after event 8
    const [, , previous, rewritten] = await db.store.readStream('order-a');
    const { rows } = await db.pool.query(`SELECT chain_hash FROM audit_chain WHERE stream = 'order-a' AND revision = 2`);
    await db.pool.query(`ALTER TABLE audit_chain DISABLE TRIGGER audit_chain_append_only`);
    await db.pool.query(`UPDATE audit_chain SET event_hash = $1, chain_hash = $2 WHERE stream = 'order-a' AND revision = 3`, [
      eventHash(rewritten),
      chainHash(rows[0].chain_hash, eventHash(rewritten)),
    ]);
    expect(previous.revision).toBe(2);

    expect(await verifyStream(db, 'order-a')).toMatchObject({ ok: true });
    expect(await verifyHistory(db)).toMatchObject({ ...firstBreak('seal_mismatch', 'order-a', 3), checked: 8, sealsChecked: 1 });
  });

  it('refuses an export cut short by a deleted event with exit code 1, and does not offer its digest to keep', async () => {
    await tamper.deleteEvent(db, 'order-a', 1);
    const dir = await mkdtemp(join(tmpdir(), 'idem-audit-'));
    try {
      const run = await idem(db, 'audit', 'export', join(dir, 'history.ndjson'));
      expect(run.code).toBe(1);
      expect(JSON.parse(run.out)).toMatchObject({ events: EVENT_COUNT - 1, chained: EVENT_COUNT });
      expect(run.err).toContain(`the store holds only ${EVENT_COUNT - 1} of the ${EVENT_COUNT} chained events`);
      expect(run.err).not.toContain('keep this digest');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('exports a rewritten event as it is now, so the file fails offline where the store fails', async () => {
    await tamper.rewriteData(db, 'order-b', 2);
    const dir = await mkdtemp(join(tmpdir(), 'idem-audit-'));
    try {
      const file = join(dir, 'history.ndjson');
      // The export says so itself (exit 1), and offers no digest that a verify-file of its own file would not print.
      const run = await idem(db, 'audit', 'export', file);
      expect(run.code).toBe(1);
      expect(JSON.parse(run.out)).toMatchObject({ events: EVENT_COUNT, firstBreak: { kind: 'rewritten', stream: 'order-b', revision: 2 } });
      expect(run.err).toContain('this export does not verify (rewritten at order-b@2');
      expect(run.err).not.toContain('keep this digest');
      const verify = await idem(db, 'audit', 'verify-file', file);
      expect(verify.code).toBe(1);
      expect(JSON.parse(verify.out)).toMatchObject({ ...firstBreak('rewritten', 'order-b', 2), checked: 5 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
