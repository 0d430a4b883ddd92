/**
 * `subscribeToAll` on PostgreSQL: pages through `readAll` from the checkpoint (catch-up), then keeps
 * polling (live). Polls are cheap index range scans; an append in this process wakes the poll at once,
 * other processes' appends are seen within `pollIntervalMs`.
 */
import type { EventEmitter } from 'node:events';
import type { Pool } from 'pg';
import { compareCheckpoints } from '../checkpoint';
import type { Checkpoint, EventSubscription, SubscribeOptions, SubscriptionBatch } from '../event-store.port';
import { SETTLED_HORIZON_QUERY, horizonCheckpoint, readAllQuery, toRecordedEvent, type EventRow } from './read-all.query';

export class PostgresSubscription implements EventSubscription {
  private closed = false;
  private wake: (() => void) | undefined;
  private readonly onAppended = () => this.wake?.();

  constructor(
    private readonly pool: Pool,
    private readonly appended: EventEmitter,
    private readonly pollIntervalMs: number,
    private readonly options: SubscribeOptions,
  ) {
    appended.on('appended', this.onAppended);
    appended.on('closed', this.onAppended);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<SubscriptionBatch> {
    const batchSize = this.options.maxBatchSize ?? 1000;
    const filtered = Boolean(this.options.filter?.eventTypes?.length || this.options.filter?.streamCategories?.length);
    let checkpoint: Checkpoint | undefined = this.options.after;
    let caughtUp = false;
    try {
      while (!this.closed) {
        // Read the horizon first: whatever settled before it is visible to the read that follows.
        const horizon = filtered ? await this.settledHorizon() : undefined;
        const { rows } = await this.pool.query<EventRow>(
          readAllQuery({ after: checkpoint, maxCount: batchSize, filter: this.options.filter }),
        );
        const events = rows.map(toRecordedEvent);
        const full = events.length === batchSize;
        let next = events.length ? events[events.length - 1].position : checkpoint;
        if (!full && horizon && (!next || compareCheckpoints(horizon, next) > 0)) next = horizon;
        const becameCaughtUp = !full && !caughtUp;
        caughtUp = caughtUp || !full;
        if (events.length || becameCaughtUp || next !== checkpoint) {
          checkpoint = next;
          yield { events, checkpoint, caughtUp };
        }
        if (!full) await this.waitForAppendOrPoll();
      }
    } finally {
      this.detach();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wake?.();
    this.detach();
  }

  private async settledHorizon(): Promise<Checkpoint | undefined> {
    const { rows } = await this.pool.query<{ below: string }>(SETTLED_HORIZON_QUERY);
    return rows[0].below.startsWith('-') ? undefined : horizonCheckpoint(rows[0].below);
  }

  private waitForAppendOrPoll(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.pollIntervalMs);
      const self = this;
      function done() {
        clearTimeout(timer);
        self.wake = undefined;
        resolve();
      }
      this.wake = done;
    });
  }

  private detach(): void {
    this.appended.off('appended', this.onAppended);
    this.appended.off('closed', this.onAppended);
  }
}
