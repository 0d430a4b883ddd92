import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintAsNumber } from '../../src/subscriptions/read-models/column-transformers';

export type ImportOutcome = 'imported' | 'updated' | 'unchanged' | 'skipped_stale' | 'duplicate';

/** What an import run did with each source record (from `import-<runId>`). */
@Entity({ name: 'import_events' })
@Index(['sourceId'])
@Index(['eventId'], { where: 'event_id IS NOT NULL' })
export class ImportEventRow {
  @PrimaryColumn({ name: 'run_id', type: 'text' })
  runId!: string;

  @PrimaryColumn({ name: 'source_id', type: 'text' })
  sourceId!: string;

  /** The source system's event id, when it sent one. */
  @Column({ name: 'event_id', type: 'text', nullable: true })
  eventId!: string | null;

  @Column({ name: 'source_updated_at', type: 'timestamptz', nullable: true })
  sourceUpdatedAt!: Date | null;

  @Column({ name: 'checksum', type: 'text', nullable: true })
  checksum!: string | null;

  @Column({ name: 'outcome', type: 'text' })
  outcome!: ImportOutcome;

  @Column({ name: 'revision', type: 'bigint', transformer: bigintAsNumber })
  revision!: number;

  @Column({ name: 'recorded_at', type: 'timestamptz' })
  recordedAt!: Date;
}
