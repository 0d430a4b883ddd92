import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { RunView } from '../../modules/contacts/import-run.view';
import { bigintAsNumber } from '../../src/subscriptions/read-models/column-transformers';

/**
 * One import run (`import-<runId>`: a pull run, a file, a push batch) as GET /v1/sync/runs lists it,
 * with its outcome counts as columns. The list leaves push batches out (one run per POST), so its
 * indexes do too; the last one holds only the push runs still running, which a worker's sweep reads
 * (end-abandoned-pushes.ts).
 */
@Entity({ name: 'sync_runs' })
@Index(['startedAt', 'runId'], { where: "kind <> 'push'" })
@Index(['status', 'startedAt', 'runId'], { where: "kind <> 'push'" })
@Index(['runId'], { where: "kind = 'push' AND status = 'running'" })
export class SyncRunRow {
  @PrimaryColumn({ name: 'run_id', type: 'text' })
  runId!: string;

  @Column({ name: 'source', type: 'text' })
  source!: string;

  @Column({ name: 'kind', type: 'text' })
  kind!: RunView['kind'];

  @Column({ name: 'status', type: 'text' })
  status!: RunView['status'];

  @Column({ name: 'processed', type: 'integer' })
  processed!: number;

  @Column({ name: 'pages', type: 'integer' })
  pages!: number;

  @Column({ name: 'imported', type: 'integer' })
  imported!: number;

  @Column({ name: 'updated', type: 'integer' })
  updated!: number;

  @Column({ name: 'unchanged', type: 'integer' })
  unchanged!: number;

  @Column({ name: 'skipped_stale', type: 'integer' })
  skippedStale!: number;

  @Column({ name: 'duplicate', type: 'integer' })
  duplicate!: number;

  @Column({ name: 'deleted', type: 'integer' })
  deleted!: number;

  @Column({ name: 'rejected', type: 'integer' })
  rejected!: number;

  @Column({ name: 'conflict', type: 'integer' })
  conflict!: number;

  /** Where the next page starts (a pull run's source cursor, a file's line); null at the start or when done. */
  @Column({ name: 'cursor', type: 'text', nullable: true })
  cursor!: string | null;

  /**
   * The CRM a pull run is driven against (RunView.sourceIdentity); null for other runs and runs recorded
   * before. Added in the table's version made by a rebuild, or by sync-runs.migration.ts to a version made
   * before, where rows projected before it stay null until `idem projections rebuild sync_runs`.
   */
  @Column({ name: 'source_identity', type: 'text', nullable: true })
  sourceIdentity!: string | null;

  /** Why the run failed or needs review. */
  @Column({ name: 'reason', type: 'text', nullable: true })
  reason!: string | null;

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  startedAt!: Date | null;

  @Column({ name: 'updated_at', type: 'timestamptz', nullable: true })
  updatedAt!: Date | null;

  /** Revision of the last `import-<runId>` event reflected here. */
  @Column({ name: 'revision', type: 'bigint', transformer: bigintAsNumber })
  revision!: number;
}
