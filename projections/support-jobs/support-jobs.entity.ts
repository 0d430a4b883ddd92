import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintAsNumber } from '../../src/subscriptions/read-models/column-transformers';

export type SupportJobStatus = 'pending' | 'done' | 'failed' | 'needs_review';
export type SupportJobKind = 'charge-order' | 'import-run';

/**
 * The support index (DESIGN.md §8): one row per background job a customer or operator may ask about,
 * searchable by customer, order, request id and provider reference.
 */
@Entity({ name: 'support_jobs' })
@Index(['orderId'])
@Index(['customerId'])
@Index(['requestId'])
@Index(['externalReference'])
@Index(['status', 'updatedAt'])
export class SupportJobRow {
  /** `charge-order:<orderId>` (also the job-queue key) or `import-run:<runId>`. */
  @PrimaryColumn({ name: 'job_id', type: 'text' })
  jobId!: string;

  @Column({ name: 'kind', type: 'text' })
  kind!: SupportJobKind;

  @Column({ name: 'order_id', type: 'text', nullable: true })
  orderId!: string | null;

  @Column({ name: 'customer_id', type: 'text', nullable: true })
  customerId!: string | null;

  /** Correlation id of the request that started the job. */
  @Column({ name: 'request_id', type: 'text' })
  requestId!: string;

  /** Provider reference (charge or intent id) of a charge; the source system of an import. */
  @Column({ name: 'external_reference', type: 'text', nullable: true })
  externalReference!: string | null;

  @Column({ name: 'status', type: 'text' })
  status!: SupportJobStatus;

  @Column({ name: 'attempts', type: 'integer' })
  attempts!: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  /** Start of the latest attempt after the first one (a charge's next attempt, an import run's resume). */
  @Column({ name: 'last_retry_at', type: 'timestamptz', nullable: true })
  lastRetryAt!: Date | null;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'revision', type: 'bigint', transformer: bigintAsNumber })
  revision!: number;
}
