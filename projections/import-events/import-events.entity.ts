import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { ImportOutcome } from '../../modules/contacts/contact.events';
import { bigintAsNumber } from '../../src/subscriptions/read-models/column-transformers';

export type { ImportOutcome };

/**
 * What each import (push batch, pull run, file) did with each source record it carried, and why:
 * one row per record of a run (`seq`), so a batch that carries one contact twice keeps both rows.
 * Answers "for this source record, every run that touched it, with which outcome and why".
 */
@Entity({ name: 'import_events' })
@Index(['source', 'sourceId'])
@Index(['eventId'], { where: 'event_id IS NOT NULL' })
export class ImportEventRow {
  @PrimaryColumn({ name: 'run_id', type: 'text' })
  runId!: string;

  @PrimaryColumn({ name: 'seq', type: 'integer' })
  seq!: number;

  @Column({ name: 'source', type: 'text' })
  source!: string;

  @Column({ name: 'source_id', type: 'text' })
  sourceId!: string;

  /** The source system's event id, when it sent one. */
  @Column({ name: 'event_id', type: 'text', nullable: true })
  eventId!: string | null;

  @Column({ name: 'source_version', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  sourceVersion!: number | null;

  @Column({ name: 'source_updated_at', type: 'timestamptz', nullable: true })
  sourceUpdatedAt!: Date | null;

  @Column({ name: 'checksum', type: 'text', nullable: true })
  checksum!: string | null;

  @Column({ name: 'outcome', type: 'text' })
  outcome!: ImportOutcome;

  @Column({ name: 'reason', type: 'text', nullable: true })
  reason!: string | null;

  /** The contact stream's revision after the record (null when it has none, e.g. rejected). */
  @Column({ name: 'contact_revision', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  contactRevision!: number | null;

  /** Revision of the `import-<runId>` event this row comes from. */
  @Column({ name: 'revision', type: 'bigint', transformer: bigintAsNumber })
  revision!: number;

  @Column({ name: 'recorded_at', type: 'timestamptz' })
  recordedAt!: Date;
}
