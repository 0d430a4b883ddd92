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
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import type { EventStore } from '../../../src/event-store/event-store.port';
import type { CommandContext } from '../../../src/command-handling/handle-command';
import { importStream, type ImportEvent, type ImportRunStarted } from '../contact.events';
import { assertKnownSource } from '../contact-sources';
import type { ImportRunState } from '../import-run.state';
import { importItems, throwIfNotStored } from '../import-contacts/import-records';
import { checkItems, type BatchItem } from '../import-contacts/import-request';
import { appendRunEvents, loadRun } from '../pull-run/drive-run';
import { decideNothingLeftToRead, decidePage, pageStart } from '../pull-run/record-page.decision';
import { startRun } from '../pull-run/start-run';
import { rejectedKey } from '../import-contact/contact-record';
import { fileRecords, formatOf, type FileFormat, type FileRow } from './file-records';
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
}

/** The file's content hash and how many bytes it covers: the import reads exactly those. */
export async function hashContent(path: string, signal?: AbortSignal): Promise<{ hash: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path, { signal })) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { hash: hash.digest('hex'), bytes };
}

export const contentHash = async (path: string, signal?: AbortSignal): Promise<string> => (await hashContent(path, signal)).hash;

export async function importFile(options: FileImportOptions): Promise<ImportRunState> {
  const { store, source, path, metadata } = options;
  assertKnownSource(source);
  const { hash, bytes: totalBytes } = await hashContent(path, options.signal);
  await options.afterHashing?.();
  const runId = await fileRunId(store, source, hash, formatOf(path));
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

  let bytes = 0;
  // The bytes as read, hashed again: a file rewritten in place with the same size reads other bytes than were hashed.
  const readHash = createHash('sha256');
  const doneUpTo = Number(run.cursor ?? 0);
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
    const events = decidePage(run, { cursor: run.cursor, nextCursor, results });
    await options.beforeRecordingSlice?.(run);
    await append(events);
    slice = [];
    options.onProgress?.({ bytes, totalBytes, run });
  };
  // Its last slice was recorded and its completion cut off: the file is not read again.
  if (run.readToEnd) return complete();
  for await (const line of fileRecords(path, formatOf(path), {
    bytes: totalBytes,
    onChunk: (chunk) => {
      bytes += chunk.length;
      readHash.update(chunk);
    },
    maxLineBytes: options.maxLineBytes,
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
