/**
 * `idem audit export`: the chained history as NDJSON (export-lines.ts) — every event as the store
 * holds it now, beside the hashes the chain recorded for it, and the seals. An event changed after
 * it was chained is exported as it is now, so the file fails `verify-file` exactly where the store
 * fails `verify`; each line is checked as it is written (the same ExportChecker), so the export itself
 * says so rather than offering a digest its own file does not reach. The store's events are matched
 * to the chain's entries by id (align-history.ts): an event gone leaves its number out of the file, one
 * moved is written where it is stored, with its own number, and one slipped into the past with no
 * chain hash. Events the projector has not linked yet
 * are left for the next export.
 */
import { once } from 'node:events';
import { WriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import type { ChainEntry } from '../../../projections/audit-chain/audit-chain.projector';
import { readEntries, readHead, readSeals, readStreamEntries } from '../../../projections/audit-chain/audit-chain.queries';
import { eventHash } from '../../../projections/audit-chain/chain-hash';
import type { RecordedEvent } from '../../../src/event-store/event-store.port';
import type { ChainBreak } from '../verify-history/chain-break';
import { HistoryPages } from '../verify-history/history-pages';
import type { VerifyDeps } from '../verify-history/verify-history';
import { HistoryAlignment } from './align-history';
import { ExportChecker } from './export-checker';
import { EXPORT_FORMAT, type EventLine, type ExportLine } from './export-lines';

const PAGE = 1000;

export interface ExportSummary {
  /** Events written; fewer than `chained` when the store no longer holds every chained event. */
  events: number;
  /** Events the chain holds (its head when the export began). */
  chained: number;
  seals: number;
  digest: string;
  /**
   * The first break: a chained event the store no longer holds or holds elsewhere in the global order,
   * named as `verify` names it (the file can only show the numbers out of sequence); else the first
   * break `verify-file` will find in the written file.
   */
  firstBreak?: ChainBreak;
}

/**
 * Writes the export to `out` (not ended here); `progress` hears the number of events written so far and
 * the total. `signal` stops it between pages, rejecting with its reason.
 */
export async function exportHistory(
  { store, pool }: VerifyDeps,
  out: Writable,
  progress: (written: number, total: number) => void = () => undefined,
  signal?: AbortSignal,
): Promise<ExportSummary> {
  // An unwritable path (or an existing file: the CLI opens with 'wx') fails here, before any work.
  if (out instanceof WriteStream && out.pending) await once(out, 'open');
  const head = await readHead(pool);
  const seals = await readSeals(pool, head.eventsChained);
  const alignment = new HistoryAlignment(new HistoryPages(store, PAGE), {
    entryEventStored: async (entry) => (await store.readStream(entry.stream)).some((event) => event.id === entry.eventId),
    entryOf: async (event) => (await readStreamEntries(pool, event.stream, head.eventsChained)).find((entry) => entry.eventId === event.id),
  });
  const checker = new ExportChecker();
  let fileBroken = false;
  const write = async (line: ExportLine) => {
    // A stream that failed (a full disk) never drains again: stop with its error instead of waiting.
    if (out.errored) throw out.errored;
    const text = JSON.stringify(line);
    fileBroken = !checker.line(text) || fileBroken;
    if (!out.write(`${text}\n`)) await once(out, 'drain');
  };
  await write({ kind: 'header', format: EXPORT_FORMAT, exportedAt: new Date().toISOString(), events: head.eventsChained });
  /** The last entry taken (written, or gone from the store); `written` counts the entries written. */
  let taken = 0;
  let written = 0;
  let sealsWritten = 0;
  let sealsTaken = 0;
  /** Where the store lost or moved a chained event, named as `verify` names it, when the file was whole up to there. */
  let storeBreak: ChainBreak | undefined;
  pages: while (taken < head.eventsChained) {
    signal?.throwIfAborted();
    const entries = await readEntries(pool, taken, head.eventsChained, PAGE);
    if (!entries.length) break;
    for (const entry of entries) {
      let step = await alignment.next(entry);
      // Events stored before the entry's own: never chained, or chained further on (written ahead, out of place).
      for (; step.kind === 'unchained' || (step.kind === 'event' && step.entry !== entry); step = await alignment.next(entry)) {
        if (step.kind === 'unchained') {
          await write(unchainedLine(step.event, taken));
          continue;
        }
        storeBreak ??= fileBroken ? undefined : step.problem;
        await write(eventLine(step.entry, step.event));
        written += 1;
      }
      if (step.kind === 'end' || step.kind === 'gone') storeBreak ??= fileBroken ? undefined : step.problem;
      if (step.kind === 'end') break pages;
      if (step.kind === 'event') {
        await write(eventLine(entry, step.event));
        written += 1;
      }
      taken = entry.eventNumber;
      const seal = seals[sealsTaken];
      if (seal?.eventsSealed !== taken) continue;
      sealsTaken += 1;
      // A seal after an event gone from the store, or written out of place, falls on no line: the file already breaks there.
      if (step.kind !== 'event') continue;
      await write({ kind: 'seal', eventsSealed: seal.eventsSealed, position: seal.position, digest: seal.digest });
      sealsWritten += 1;
    }
    progress(taken, head.eventsChained);
  }
  await write({ kind: 'end', events: head.eventsChained, digest: head.digest });
  const report = checker.report();
  const summary = { events: written, chained: head.eventsChained, seals: sealsWritten, digest: head.digest };
  const firstBreak = storeBreak ?? report.firstBreak;
  return firstBreak ? { ...summary, firstBreak } : summary;
}

const eventLine = (entry: ChainEntry, event: RecordedEvent): EventLine => ({
  kind: 'event',
  eventNumber: entry.eventNumber,
  ...storedEvent(event),
  eventHash: entry.eventHash,
  chainHash: entry.chainHash,
});

/** An event the chain never recorded, numbered as the chained event before it, with its own hash and no chain hash. */
const unchainedLine = (event: RecordedEvent, after: number): EventLine => ({
  kind: 'event',
  eventNumber: after,
  ...storedEvent(event),
  eventHash: eventHash(event),
  chainHash: null,
});

const storedEvent = ({ position, stream, revision, id, type, data, metadata, created }: RecordedEvent) => ({
  position,
  stream,
  revision,
  id,
  type,
  data,
  metadata,
  created: created.toISOString(),
});
