/**
 * Checks an export line by line with nothing but the file: recomputes each event's hash, its
 * stream's chain and the running digest; revisions must follow each other per stream and event
 * numbers overall; seals and the end line must match the digest, and each LedgerSealed event (the seals
 * published to `seal-ledger`) the digest recomputed where its seal line stands. Positions are the store's,
 * not hashed: they must be positions, rise strictly in the file's (global) order, and the sealed event's must
 * be the one its LedgerSealed names (that event is hashed). A file edited consistently all the
 * way to its end passes — which is why its final digest is printed, to compare with a seal or an
 * earlier export kept elsewhere (docs/AUDIT.md).
 */
import { eventHash } from '../../../projections/audit-chain/chain-hash';
import { ChainReplay } from '../../../projections/audit-chain/chain-replay';
import { compareCheckpoints, isCheckpoint, type Checkpoint } from '../../../src/event-store/checkpoint';
import { SEAL_STREAM, type LedgerSealed } from '../ledger-sealed.events';
import type { ChainBreak, VerifyReport } from '../verify-history/chain-break';
import { EXPORT_FORMAT, type EventLine, type ExportLine } from './export-lines';
import { malformedLine } from './line-shape';

export class ExportChecker {
  private readonly replay = new ChainReplay();
  private readonly nextRevisions = new Map<string, number>();
  /** The recomputed digest and the sealed event's position at each seal line that matched them, by events sealed. */
  private readonly sealed = new Map<number, { digest: string; position: string }>();
  private checked = 0;
  private sealsChecked = 0;
  private lastEvent: EventLine | undefined;
  private lineNumber = 0;
  private sawHeader = false;
  private sawEnd = false;
  private problem: ChainBreak | undefined;
  /**
   * An event line that came before its turn (its number skips one): judged by the next line, which
   * tells a swap (the skipped number comes right after: `reordered`) from a gap (`missing`).
   */
  private early: { line: EventLine; gap: ChainBreak } | undefined;

  /** Feeds one line; false once a break is found (the rest need not be read). */
  line(text: string): boolean {
    if (this.problem) return false;
    this.lineNumber += 1;
    if (!text.trim()) return true;
    this.problem = this.check(text);
    return !this.problem;
  }

  report(): VerifyReport {
    const problem =
      this.problem ??
      this.early?.gap ??
      (this.sawEnd ? undefined : this.fileBreak('missing', 'the file ends without its end line (cut short)'));
    const counts = { checked: this.checked, sealsChecked: this.sealsChecked, unchained: 0, digest: this.replay.head.digest };
    return problem ? { ok: false, ...counts, firstBreak: problem } : { ok: true, ...counts };
  }

  private check(text: string): ChainBreak | undefined {
    let line: ExportLine;
    try {
      line = JSON.parse(text) as ExportLine;
    } catch {
      return this.early?.gap ?? this.fileBreak('rewritten', `line ${this.lineNumber} is not JSON`);
    }
    const malformed = malformedLine(line);
    if (malformed) return this.early?.gap ?? this.fileBreak('rewritten', `line ${this.lineNumber} ${malformed}`);
    if (this.early) return this.judgeEarly(this.early, line);
    if (this.sawEnd) return this.fileBreak('extra', `line ${this.lineNumber} follows the end line`);
    if (!this.sawHeader) {
      this.sawHeader = true;
      return line.kind === 'header' && line.format === EXPORT_FORMAT ? undefined : this.fileBreak('rewritten', 'not an Idem audit export');
    }
    if (line.kind === 'event') return this.checkEvent(line);
    if (line.kind === 'seal') {
      if (line.eventsSealed > this.checked)
        return this.fileBreak('missing', `events before the seal after event ${line.eventsSealed} are gone`);
      const { digest } = this.replay.head;
      if (line.eventsSealed === this.checked && line.digest === digest && line.position === this.lastEvent?.position) {
        this.sealsChecked += 1;
        this.sealed.set(line.eventsSealed, { digest, position: line.position });
        return undefined;
      }
      return this.atLastEvent(
        'seal_mismatch',
        line.digest,
        digest,
        `the seal after event ${line.eventsSealed} does not match the events before it`,
      );
    }
    if (line.kind === 'end') {
      this.sawEnd = true;
      if (line.events !== this.checked)
        return this.fileBreak('missing', `the end line counts ${line.events} events, the file holds ${this.checked}`);
      const { digest } = this.replay.head;
      return line.digest === digest ? undefined : this.atLastEvent('seal_mismatch', line.digest, digest, 'the final digest does not match');
    }
    return this.fileBreak('rewritten', `line ${this.lineNumber} is of no known kind`);
  }

  private checkEvent(line: EventLine): ChainBreak | undefined {
    const at = { stream: line.stream, revision: line.revision, position: line.position };
    if (line.chainHash === null) {
      const detail = `event ${line.id} at ${line.stream}@${line.revision} was never chained, yet sits before the chain's end`;
      return { ...at, kind: 'extra', expected: null, actual: eventHash(line), detail };
    }
    if (line.eventNumber !== this.checked + 1) {
      const kind = line.eventNumber > this.checked + 1 ? 'missing' : 'extra';
      const gap: ChainBreak = {
        ...at,
        kind,
        expected: null,
        actual: null,
        detail: `event number ${line.eventNumber} follows ${this.checked}`,
      };
      if (kind === 'missing' && line.eventNumber === this.checked + 2) {
        this.early = { line, gap };
        return undefined;
      }
      return gap;
    }
    const expectedRevision = this.nextRevisions.get(line.stream) ?? 0;
    if (line.revision !== expectedRevision && eventHash({ ...line, revision: expectedRevision }) === line.eventHash) {
      // The hash the chain recorded is this event's at the revision due here: it was moved, not one before it lost.
      const detail = `event ${line.id} was chained at ${line.stream}@${expectedRevision} and now sits at ${line.stream}@${line.revision}`;
      return { ...at, revision: expectedRevision, kind: 'reordered', expected: line.eventHash, actual: eventHash(line), detail };
    }
    if (line.revision !== expectedRevision) {
      const kind = line.revision > expectedRevision ? 'missing' : 'reordered';
      const detail = `${line.stream}@${line.revision} follows ${line.stream}@${expectedRevision - 1}`;
      return { ...at, kind, expected: null, actual: eventHash(line), detail };
    }
    const link = this.replay.link(line);
    if (link.eventHash !== line.eventHash)
      return { ...at, kind: 'rewritten', expected: line.eventHash, actual: link.eventHash, detail: `event ${line.id} was changed` };
    if (link.chainHash !== line.chainHash)
      return {
        ...at,
        kind: 'rewritten',
        expected: line.chainHash,
        actual: link.chainHash,
        detail: `the chain link of event ${line.id} was changed`,
      };
    const misplaced = this.checkPosition(line);
    if (misplaced) return { ...at, ...misplaced };
    this.nextRevisions.set(line.stream, line.revision + 1);
    this.lastEvent = line;
    this.checked += 1;
    return line.stream === SEAL_STREAM && line.type === 'LedgerSealed' ? this.checkPublishedSeal(line) : undefined;
  }

  /**
   * The store gives each event its position; the file's order is the global order, so each position must
   * exceed the one before it. An edited position that still lies between its neighbours goes unseen here
   * (docs/AUDIT.md), unless a LedgerSealed names it (checkPublishedSeal).
   */
  private checkPosition(line: EventLine): Pick<ChainBreak, 'kind' | 'expected' | 'actual' | 'detail'> | undefined {
    const event = `event ${line.eventNumber} (${line.stream}@${line.revision})`;
    if (!isCheckpoint(line.position))
      return { kind: 'rewritten', expected: null, actual: null, detail: `${event} has no store position: "${String(line.position)}"` };
    const before = this.lastEvent?.position;
    if (before === undefined || compareCheckpoints(line.position as Checkpoint, before as Checkpoint) > 0) return undefined;
    const detail = `${event} is at position ${line.position}, not after ${before} of the event before it: positions were edited`;
    return { kind: 'reordered', expected: null, actual: null, detail };
  }

  /** The line after an early one: the number it skipped, so the two were swapped; else a gap. */
  private judgeEarly(early: { line: EventLine; gap: ChainBreak }, next: ExportLine): ChainBreak {
    if (next.kind !== 'event' || next.eventNumber !== this.checked + 1) return early.gap;
    const { line } = early;
    return {
      stream: next.stream,
      revision: next.revision,
      position: next.position,
      kind: 'reordered',
      expected: null,
      actual: null,
      detail: `event number ${next.eventNumber} (${next.stream}@${next.revision}) comes after ${line.eventNumber} (${line.stream}@${line.revision})`,
    };
  }

  private checkPublishedSeal(line: EventLine): ChainBreak | undefined {
    const { eventsSealed, digest, position } = line.data as LedgerSealed['data'];
    const sealed = this.sealed.get(eventsSealed);
    if (!sealed && eventsSealed <= this.checked) {
      // Seal lines that did not match stopped the check there: this one is absent, and so is its digest.
      const detail =
        `${line.stream}@${line.revision} publishes the seal after event ${eventsSealed}, which has no seal line in the file: ` +
        'the line was removed, or the seal row it is written from (audit_seals)';
      return {
        stream: line.stream,
        revision: line.revision,
        position: line.position,
        kind: 'missing',
        expected: digest,
        actual: null,
        detail,
      };
    }
    const recomputed = sealed?.digest;
    if (recomputed === digest && sealed?.position === position) {
      this.sealsChecked += 1;
      return undefined;
    }
    if (recomputed === digest) {
      const detail = `${line.stream}@${line.revision} seals event ${eventsSealed} at position ${position}, the file puts it at ${sealed?.position}`;
      return {
        stream: line.stream,
        revision: line.revision,
        position: line.position,
        kind: 'seal_mismatch',
        expected: null,
        actual: null,
        detail,
      };
    }
    const detail = `${line.stream}@${line.revision} seals ${eventsSealed} events with a digest the history up to there does not give`;
    return {
      stream: line.stream,
      revision: line.revision,
      position: line.position,
      kind: 'seal_mismatch',
      expected: digest,
      actual: recomputed ?? null,
      detail,
    };
  }

  private atLastEvent(kind: ChainBreak['kind'], expected: string, actual: string, detail: string): ChainBreak {
    const last = this.lastEvent;
    return {
      stream: last?.stream ?? null,
      revision: last?.revision ?? null,
      position: last?.position ?? null,
      kind,
      expected,
      actual,
      detail,
    };
  }

  private fileBreak(kind: ChainBreak['kind'], detail: string): ChainBreak {
    return { stream: null, revision: null, position: null, kind, expected: null, actual: null, detail };
  }
}
