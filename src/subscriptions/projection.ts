/**
 * What the subscription runner drives: a named consumer of the global event log whose effects are
 * committed in the same PostgreSQL transaction as its checkpoint. Two kinds share the runner:
 *
 * - read models (projectors): pure mappings from events to rows, versioned, rebuildable;
 * - reactors: turn events into work (job-queue rows written in that same transaction); never rebuilt,
 *   because replaying history must not redo real-world work.
 */
import type { Pool, PoolClient } from 'pg';
import type { EventFilter, RecordedEvent } from '../event-store/event-store.port';

export type ProjectionKind = 'read_model' | 'reactor';

/** `live` keeps the serving version current; `rebuild` builds a new version beside it. */
export type ProjectionMode = 'live' | 'rebuild';

export interface ProjectionContext {
  /** The open transaction that will also commit the checkpoint: write through it, nowhere else. */
  client: PoolClient;
  version: number;
  mode: ProjectionMode;
}

export interface Projection {
  /** Stable name; also the reader-facing view name for read models. */
  readonly name: string;
  readonly kind: ProjectionKind;
  /** Which events the runner subscribes to (applied again client-side, so it may be loose). */
  readonly filter: EventFilter;
  /** Applies one batch (in log order, only events matching `filter`). Must not commit or roll back. */
  handle(events: RecordedEvent[], context: ProjectionContext): Promise<void>;
  /**
   * Reactors only: creates the tables `handle` writes besides the job queue (e.g. the audit chain's),
   * before the reactor first runs; idempotent, and safe with several processes starting at once.
   * Read models need none: their versioned tables come from their table spec.
   */
  install?(pool: Pool): Promise<void>;
}
