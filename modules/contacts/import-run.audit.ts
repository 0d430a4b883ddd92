/**
 * The audit trail of an import, shared by push batches, pull runs and file imports: one
 * ImportRecordProcessed per record (what it became and why), and the counts of a run.
 */
import type { ImportOutcome, ImportRecordProcessed } from './contact.events';
import { checksumOf } from './import-contact/contact-record';
import type { RecordResult } from './import-contacts/import-records';

export function countOutcomes(
  answers: Array<{ outcome: ImportOutcome }>,
  start: Partial<Record<ImportOutcome, number>> = {},
): Partial<Record<ImportOutcome, number>> {
  const counts = { ...start };
  for (const { outcome } of answers) counts[outcome] = (counts[outcome] ?? 0) + 1;
  return counts;
}

/**
 * The longest reason a record is answered and audited with. A rejected record's reason quotes what it
 * got wrong (an unknown field's name, of any length); unbounded, one record's audit event could outgrow
 * the store's append limit. 2,000 characters say what is wrong and keep every event a few KB at most.
 */
export const MAX_REASON_CHARS = 2000;

// A NUL, or a UTF-16 surrogate half without its partner (no `u` flag: a valid pair is two units this
// pattern does not match). src/errors/storable-text.ts names the same characters.
// eslint-disable-next-line no-control-regex -- NUL is the character looked for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Text a record's audit quotes from what was sent (a rejected key, an unknown field's name, a parser's
 * message with a cell in it), as the audit can hold it: bounded (above), and with each character no
 * PostgreSQL document can hold (NUL, a lone surrogate) written as its escape, `\u0000`. Quoted as sent,
 * such a character made the store refuse the run's whole audit append after the batch's good records
 * were written: a push answered 400 having written contacts, a file import that could never finish.
 */
export function boundedReason(reason: string): string {
  const storable = reason.replace(UNSTORABLE, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (storable.length <= MAX_REASON_CHARS) return storable;
  const tail = `… (${storable.length - MAX_REASON_CHARS} more characters)`;
  let kept = storable.slice(0, MAX_REASON_CHARS - tail.length);
  // Never end on half a surrogate pair: the cut must stay well-formed text.
  if (/[\ud800-\udbff]$/.test(kept)) kept = kept.slice(0, -1);
  return kept + tail;
}

export function recordProcessed(runId: string, source: string, result: RecordResult): ImportRecordProcessed {
  const { record } = result;
  const optional = record
    ? Object.entries({
        eventId: record.eventId,
        sourceVersion: record.version,
        sourceUpdatedAt: record.updatedAt,
        checksum: checksumOf(record),
      }).filter(([, v]) => v !== undefined)
    : [];
  return {
    type: 'ImportRecordProcessed',
    data: {
      runId,
      seq: result.seq,
      source,
      sourceId: result.sourceId ?? '',
      ...(result.sentSourceId !== undefined ? { sentSourceId: result.sentSourceId } : {}),
      ...Object.fromEntries(optional),
      outcome: result.outcome,
      ...(result.reason ? { reason: boundedReason(result.reason) } : {}),
      revision: result.revision,
    },
  };
}
