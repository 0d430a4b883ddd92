/**
 * `subscribeToAll` on PostgreSQL: pages through `readAll` from the checkpoint (catch-up, reading the
 * next page while the consumer handles the current one), then keeps polling (live). Polls are cheap
 * index range scans; an append in this process wakes the poll (after `appendWakeDelayMs`, so that
 * appends close together share a page), other processes' appends are seen within `pollIntervalMs`.
 */
import type { EventEmitter } from 'node:events';
import type { Pool } from 'pg';
import { compareCheckpoints } from '../checkpoint';
import type { Checkpoint, EventSubscription, RecordedEvent, SubscribeOptions, SubscriptionBatch } from '../event-store.port';
import {
  filtersEvents,
  horizonCheckpoint,
  pageEvents,
  readAllQuery,
  readPageWithHorizonQuery,
  toRecordedEvent,
  type EventRow,
  type EventRowWithHorizon,
} from './read-all.query';

interface Page {
  events: RecordedEvent[];
  horizon: Checkpoint | undefined;
}

export class PostgresSubscription implements EventSubscription {
  private closed = false;
  private readonly filtered: boolean;
  /** Ends the current wait for an append or a poll; set only while the subscription waits. */
  private wake: (() => void) | undefined;
  private wakeTimer: NodeJS.Timeout | undefined;
  /** An append committed while no wait was set up (a page was being read, or the consumer was busy). */
  private appendedWhileBusy = false;
  private readonly onAppended = () => {
    if (!this.wake) this.appendedWhileBusy = true;
    else this.scheduleWake();
  };
  private readonly onClosed = () => this.wake?.();

  constructor(
    private readonly pool: Pool,
    private readonly appended: EventEmitter,
    private readonly pollIntervalMs: number,
    private readonly options: SubscribeOptions,
    private readonly appendWakeDelayMs = 0,
  ) {
    this.filtered = filtersEvents(options.filter);
    appended.on('appended', this.onAppended);
    appended.on('closed', this.onClosed);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<SubscriptionBatch> {
    const batchSize = this.options.maxBatchSize ?? 1000;
    let checkpoint: Checkpoint | undefined = this.options.after;
    let caughtUp = false;
    // While the consumer handles a full batch, the next one is already being read (catch-up speed:
    // the database and the consumer work at the same time). It is the very query that would be sent
    // after the consumer returns, only sent earlier, so the gap-free rule is untouched.
    let prefetched: Promise<Page> | undefined;
    try {
      while (!this.closed) {
        const page = await (prefetched ?? this.readPage(checkpoint, batchSize));
        prefetched = undefined;
        const { events, horizon } = page;
        const full = events.length === batchSize;
        let next = events.length ? events[events.length - 1].position : checkpoint;
        // A page with events ends at its last event (the position readers resume from); only an empty
        // page moves a filtered subscription on to the horizon, past events it does not want.
        if (!events.length && horizon && (!next || compareCheckpoints(horizon, next) > 0)) next = horizon;
        const becameCaughtUp = !full && !caughtUp;
        caughtUp = caughtUp || !full;
        if (full && !this.closed) {
          prefetched = this.readPage(next, batchSize);
          prefetched.catch(() => undefined); // surfaced when awaited; never an unhandled rejection meanwhile
        }
        if (events.length || becameCaughtUp || next !== checkpoint) {
          checkpoint = next;
          yield { events, checkpoint, caughtUp };
        }
        if (!full) await this.waitForAppendOrPoll();
      }
    } finally {
      this.detach();
      // A consumer that stops early must not leave a query running on a pool it may end next.
      await prefetched?.catch(() => undefined);
    }
  }

  /**
   * One page after `checkpoint`, plus (filtered subscriptions) the settled horizon of the same
   * snapshot: whatever settled below it was visible to the read, so skipping to it loses nothing.
   */
  private async readPage(checkpoint: Checkpoint | undefined, batchSize: number): Promise<Page> {
    const options = { after: checkpoint, maxCount: batchSize, filter: this.options.filter };
    if (!this.filtered) {
      const { rows } = await this.pool.query<EventRow>(readAllQuery(options));
      return { events: rows.map(toRecordedEvent), horizon: undefined };
    }
    const { rows } = await this.pool.query<EventRowWithHorizon>(readPageWithHorizonQuery(options));
    const below = rows[0][9];
    return { events: pageEvents(rows), horizon: below.startsWith('-') ? undefined : horizonCheckpoint(below) };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wake?.();
    this.detach();
  }

  private waitForAppendOrPoll(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.pollIntervalMs);
      // `done` is a hoisted function (the timer above is created with it), so it reaches `this` through `self`.
      // eslint-disable-next-line @typescript-eslint/no-this-alias
      const self = this;
      function done() {
        clearTimeout(timer);
        clearTimeout(self.wakeTimer);
        self.wakeTimer = undefined;
        self.wake = undefined;
        resolve();
      }
      this.wake = done;
      if (this.appendedWhileBusy) {
        this.appendedWhileBusy = false;
        this.scheduleWake();
      }
    });
  }

  /**
   * An append in this process wakes a waiting subscription after `appendWakeDelayMs`, not at once:
   * appends that land meanwhile join the same page and the same projection batch, and the
   * transactions still in flight (which hold the gap-free horizon back, so that an immediate read
   * often finds nothing it may deliver) have time to commit.
   */
  private scheduleWake(): void {
    if (this.wakeTimer) return;
    if (this.appendWakeDelayMs <= 0) return this.wake?.();
    this.wakeTimer = setTimeout(() => this.wake?.(), this.appendWakeDelayMs);
  }

  private detach(): void {
    this.appended.off('appended', this.onAppended);
    this.appended.off('closed', this.onClosed);
    clearTimeout(this.wakeTimer);
  }
}
