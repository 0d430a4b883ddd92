/**
 * `idem audit export`: the chained history as NDJSON (export-lines.ts) — every event as the store
 * holds it now, beside the hashes the chain recorded for it, and the seals. An event changed after
 * it was chained is exported as it is now, so the file fails `verify-file` exactly where the store
 * fails `verify`; each line is checked as it is written (the same ExportChecker), so the export itself
 * says so rather than offering a digest its own file does not reach. Events the projector has not
 * linked yet are left for the next export.
 */
import { once } from 'node:events';
import { WriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { readEntries, readHead, readSeals } from '../../../projections/audit-chain/audit-chain.queries';
import type { ChainBreak } from '../verify-history/chain-break';
import { HistoryPages } from '../verify-history/history-pages';
import type { VerifyDeps } from '../verify-history/verify-history';
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
  /** The first break `verify-file` will find in the written file (an event changed after it was chained, one gone…). */
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
  const events = new HistoryPages(store, PAGE);
  const checker = new ExportChecker();
  const write = async (line: ExportLine) => {
    // A stream that failed (a full disk) never drains again: stop with its error instead of waiting.
    if (out.errored) throw out.errored;
    const text = JSON.stringify(line);
    checker.line(text);
    if (!out.write(`${text}\n`)) await once(out, 'drain');
  };
  await write({ kind: 'header', format: EXPORT_FORMAT, exportedAt: new Date().toISOString(), events: head.eventsChained });
  let written = 0;
  let sealsWritten = 0;
  while (written < head.eventsChained) {
    signal?.throwIfAborted();
    const entries = await readEntries(pool, written, head.eventsChained, PAGE);
    if (!entries.length) break;
    for (const entry of entries) {
      const event = await events.next();
      if (!event) break;
      const line: EventLine = {
        kind: 'event',
        eventNumber: entry.eventNumber,
        position: event.position,
        stream: event.stream,
        revision: event.revision,
        id: event.id,
        type: event.type,
        data: event.data,
        metadata: event.metadata,
        created: event.created.toISOString(),
        eventHash: entry.eventHash,
        chainHash: entry.chainHash,
      };
      await write(line);
      written = entry.eventNumber;
      const seal = seals[sealsWritten];
      if (seal?.eventsSealed === written) {
        await write({ kind: 'seal', eventsSealed: seal.eventsSealed, position: seal.position, digest: seal.digest });
        sealsWritten += 1;
      }
    }
    progress(written, head.eventsChained);
    if (written < entries.at(-1)!.eventNumber) break;
  }
  await write({ kind: 'end', events: head.eventsChained, digest: head.digest });
  const report = checker.report();
  const summary = { events: written, chained: head.eventsChained, seals: sealsWritten, digest: head.digest };
  return report.ok ? summary : { ...summary, firstBreak: report.firstBreak };
}
