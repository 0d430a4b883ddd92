/**
 * `idem sync import <file> --source <name>`: a file export imported as a run like any other. The run
 * id comes from the file's content hash and the source, so importing the same file again — after a
 * kill at line 800,000 of 1,000,000 — goes on from the last recorded line, and a changed file is a
 * new run: only the bytes that were hashed are read, so lines appended to a file while it is being
 * imported are no part of its run (they are in the grown file's). The bytes read are hashed again: a
 * file rewritten in place while it is read (same size, other bytes) puts the run in `needs_review` at
 * its end, its last slice not recorded, since which records came from the changed bytes cannot be told.
 * Lines are imported in slices; each slice's outcomes and its last line are recorded in one
 * append (pull-run/record-page.decision.ts), so a slice counts as done only with all its outcomes.
 * A file that stops being readable (a malformed CSV quote) puts the run in `needs_review` after the
 * records before that line are recorded: a fixed file is a new run.
 *
 * A resumed import does not read again what its run recorded: each slice records where the file goes
 * on after it (ImportPageFetched.resumeAt: the byte offset, line numbers and, for CSV, where the header
 * ends), and the next import of the same file opens it there (a CSV file's header row comes from the
 * first bytes the hashing kept). Killed at line 1,600,000 of 2,000,000, it parses the last 400,000
 * lines only. Runs recorded before, without a place, are read from the start and skip what is recorded.
 *
 * Why the whole file is still hashed on every import, resumed or not: the hash is the run's name and
 * the only proof that the file is the one the run read. Anything cheaper (size and modification time,
 * the inode, hashes of sampled blocks) takes an edited file whose size and mtime were kept, or whose
 * change falls between the samples, for the same one, and would resume its run with the wrong records.
 * Hashing is a sequential read at SHA-256's speed (1.6 s for 318 MB here), where parsing the 1.6 M lines
 * before the place took 68 s: the parse is what a resume no longer does. The check that the bytes parsed
 * are the bytes hashed stays whole (file-hash.ts).
 */
import { basename } from 'node:path';
import type { EventStore } from '../../../src/event-store/event-store.port';
import type { CommandContext } from '../../../src/command-handling/handle-command';
import { importStream, type ImportEvent, type ImportRunStarted } from '../contact.events';
import { assertKnownSource } from '../contact-sources';
import type { ImportRunState } from '../import-run.state';
import { withTotals } from '../pull-run/run-folds';
import { importItems, throwIfNotStored } from '../import-contacts/import-records';
import { checkItems, type BatchItem } from '../import-contacts/import-request';
import { appendRunEvents, loadRun } from '../pull-run/drive-run';
import { decideNothingLeftToRead, decidePage, pageStart } from '../pull-run/record-page.decision';
import { startRun } from '../pull-run/start-run';
import { rejectedKey } from '../import-contact/contact-record';
import { fileRecords, formatOf, type FileFormat, type FileOpener, type FilePosition, type FileRow } from './file-records';
import { hashFile, hashUpTo, type HashedFile } from './file-hash';
import { boundedReason } from '../import-run.audit';

export interface FileImportOptions {
  store: EventStore;
  source: string;
  path: string;
  metadata: CommandContext['metadata'];
  /** Lines per recorded slice (default 500). */
  sliceSize?: number;
  onProgress?: (progress: { bytes: number; totalBytes: number; run: ImportRunState }) => void;
  /** Called with a slice imported but not yet recorded (crash tests stop here). */
  beforeRecordingSlice?: (run: ImportRunState) => Promise<void>;
  /**
   * Stops after the slice in flight is recorded (Ctrl+C): the run stays `running`, and the same file
   * imported again goes on from there. Aborted while the file is being hashed, the import throws.
   */
  signal?: AbortSignal;
  /** Called once the file is hashed, before it is read (tests grow the file here). */
  afterHashing?: () => Promise<void>;
  /** The longest NDJSON line read as a record (default MAX_LINE_BYTES). */
  maxLineBytes?: number;
  /** Opens the file's bytes for reading its records (default fs.createReadStream; tests count what is read). */
  open?: FileOpener;
}

/** The file's content hash: the run a file's bytes go to is named by it. */
export const contentHash = async (path: string, signal?: AbortSignal): Promise<string> => (await hashFile(path, signal)).hash;

export async function importFile(options: FileImportOptions): Promise<ImportRunState> {
  const { store, source, path, metadata } = options;
  assertKnownSource(source);
  const hashed = await hashFile(path, options.signal);
  const { hash, bytes: totalBytes } = hashed;
  await options.afterHashing?.();
  const runId = await fileRunId(store, source, hash, formatOf(path));
  // Resumed in a new process, the run is loaded from its last slice's totals, not folded record by record.
  let run = await loadRun(store, runId);
  if (!run.exists) {
    await startRun(
      store,
      { source, startedBy: metadata.actor.role, kind: 'file', contentHash: hash, file: basename(path) },
      metadata,
      runId,
    );
    run = await loadRun(store, runId);
  }
  if (run.status !== 'running') return run;

  const doneUpTo = Number(run.cursor ?? 0);
  const format = formatOf(path);
  const from = placeToReadFrom(run.fileResumeAt, doneUpTo, hashed, format);
  let bytes = from?.byte ?? 0;
  // The bytes as read, hashed again: a file rewritten in place with the same size reads other bytes than were hashed.
  const readHash = await hashUpTo(from?.byte ?? 0, hashed, path, options.open);
  let slice: FileRow[] = [];
  const append = async (events: ImportEvent[]) => {
    const recorded = await appendRunEvents({ store, metadata }, run, events);
    if (!recorded) throw new Error(`import run ${runId} is being driven by another process`);
    run = recorded;
  };
  const complete = async () => {
    await append([decideNothingLeftToRead(run)]);
    options.onProgress?.({ bytes, totalBytes, run });
    return run;
  };
  const record = async (nextCursor: string | null) => {
    // A slice a killed import recorded part of: its first lines have their outcomes already.
    const { firstSeq, recorded } = pageStart(run);
    const items = slice.map((r, i) => batchItem(r, firstSeq + i)).slice(recorded);
    const results = await importItems(store, source, runId, items, { ...metadata, correlationId: runId });
    throwIfNotStored(results);
    const resumeAt = nextCursor === null ? undefined : slice.at(-1)?.next;
    const events = withTotals(run, decidePage(run, { cursor: run.cursor, nextCursor, results }), resumeAt);
    await options.beforeRecordingSlice?.(run);
    await append(events);
    slice = [];
    options.onProgress?.({ bytes, totalBytes, run });
  };
  // Its last slice was recorded and its completion cut off: the file is not read again.
  if (run.readToEnd) return complete();
  for await (const line of fileRecords(path, format, {
    bytes: totalBytes,
    onChunk: (chunk) => {
      bytes += chunk.length;
      readHash.update(chunk);
    },
    maxLineBytes: options.maxLineBytes,
    from,
    head: hashed.head,
    open: options.open,
    skipThrough: doneUpTo,
  })) {
    // Between slices only: a slice counts once all its outcomes are recorded.
    if (options.signal?.aborted && slice.length === 0) return run;
    if ('unreadable' in line) {
      if (slice.length) await record(String(slice.at(-1)!.line));
      // The parser's words may quote a cell of the file: as the audit can hold them (boundedReason).
      const reason = boundedReason(
        `the file is not valid CSV from line ${line.fromLine} on; fix it and import it again (${line.unreadable})`,
      );
      if (run.status === 'running') await append([{ type: 'ImportRunNeedsReview', data: { runId, reason } }]);
      return run;
    }
    if (line.line <= doneUpTo) continue;
    slice.push(line);
    if (slice.length >= (options.sliceSize ?? 500)) await record(String(line.line));
    if (run.status !== 'running') return run;
  }
  if (readHash.digest('hex') !== hash) {
    // Which records came from the changed bytes cannot be told: the last slice is not recorded, and a human decides.
    const reason =
      'the file changed while it was being imported (its bytes no longer match the content hash the run is named by); import it again';
    await append([{ type: 'ImportRunNeedsReview', data: { runId, reason } }]);
    return run;
  }
  // A file ending right after a recorded slice (or holding no record) has no last slice to record.
  if (slice.length === 0) return complete();
  await record(null);
  return run;
}

/**
 * Where to open the file: the place the run's last slices recorded, if it is one this file has (at or
 * before what is recorded, inside the hashed bytes, a CSV header within the kept first bytes); else
 * undefined, and the file is read from the start, skipping what is recorded (runs recorded before).
 */
function placeToReadFrom(at: FilePosition | undefined, doneUpTo: number, hashed: HashedFile, format: FileFormat): FilePosition | undefined {
  if (!at || at.byte <= 0 || at.byte > hashed.bytes || at.line - 1 > doneUpTo) return undefined;
  if (format === 'csv' && (at.headerEnd === undefined || at.headerEnd > hashed.head.length || at.lineBreak === undefined)) return undefined;
  return at;
}

/**
 * The run a file's bytes go to: `file.<source>.<hash>`, unless that run read the same bytes as the other
 * format (the file named .csv when it holds NDJSON, or the reverse; the format comes from the name), which
 * stopped it in review or rejected every line. The same bytes under the right name are then a run of their
 * own, `file.<source>.<format>.<hash>`; were they named by the hash alone, they would get the wrongly read
 * run's answer for ever. Runs recorded before keep their ids, so a killed import still goes on in place.
 */
async function fileRunId(store: EventStore, source: string, hash: string, format: FileFormat): Promise<string> {
  const runId = `file.${source}.${hash.slice(0, 40)}`;
  const [started] = await store.readStream(importStream(runId), { maxCount: 1 });
  const readAs = (started?.data as ImportRunStarted['data'] | undefined)?.file;
  return readAs === undefined || formatOf(readAs) === format ? runId : `file.${source}.${format}.${hash.slice(0, 40)}`;
}

/** A row the parser could not make a record of is rejected with the parser's reason; a record is checked as a push's is. */
const batchItem = (line: FileRow, seq: number): BatchItem =>
  'problem' in line ? { seq, ok: false, ...rejectedKey(line.sentSourceId), problems: [line.problem] } : checkItems([line.raw], seq)[0];
