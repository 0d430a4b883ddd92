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
      ...Object.fromEntries(optional),
      outcome: result.outcome,
      ...(result.reason ? { reason: result.reason } : {}),
      revision: result.revision,
    },
  };
}
