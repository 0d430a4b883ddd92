import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintAsNumber } from '../../src/subscriptions/read-models/column-transformers';

/**
 * The current state of one source record, folded from `contact-<source>.<sourceId>`. A deleted
 * contact has no row. (Version, updatedAt optional since issue 14: a source may give neither.)
 */
@Entity({ name: 'contacts' })
@Index(['recordedAt'])
export class ContactRow {
  @PrimaryColumn({ name: 'source', type: 'text' })
  source!: string;

  @PrimaryColumn({ name: 'source_id', type: 'text' })
  sourceId!: string;

  /** The source system's version of the record, when it gives one. */
  @Column({ name: 'version', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  version!: number | null;

  /**
   * The source system's updatedAt of that version, when it gives one, as an instant in UTC to the
   * millisecond: it is written from a JS Date, which keeps no more (timestamptz could keep µs, a source may
   * send ns). So GET may show `…10:00:00.100Z` for `…10:00:00.100900+00:00`. For reading only: the
   * freshness rule compares the string the contact's events keep, at its full precision.
   */
  @Column({ name: 'updated_at', type: 'timestamptz', nullable: true })
  updatedAt!: Date | null;

  @Column({ name: 'checksum', type: 'text' })
  checksum!: string;

  @Column({ name: 'source_event_id', type: 'text', nullable: true })
  sourceEventId!: string | null;

  @Column({ name: 'fields', type: 'jsonb' })
  fields!: Record<string, unknown>;

  /** Revision of the last contact event reflected here. */
  @Column({ name: 'revision', type: 'bigint', transformer: bigintAsNumber })
  revision!: number;

  /** When Idem recorded that version. */
  @Column({ name: 'recorded_at', type: 'timestamptz' })
  recordedAt!: Date;
}
