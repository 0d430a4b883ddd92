/**
 * The rebuild's progress bar: events applied (all read models together) against the live versions'
 * event counts (what the new versions will have to apply), with the read rate and an ETA.
 */
import { ProgressBar } from '../progress-bar';
import type { RebuildProgress } from '../../subscriptions/read-models/rebuild';

export class RebuildProgressBar {
  private readonly bar: ProgressBar;
  private readonly started = Date.now();
  /** The live versions' event count, as it grows (0: an empty history, nothing to apply). */
  private expected = 0;
  private applied = 0;
  private rate = 0;

  constructor(stream: NodeJS.WritableStream) {
    this.bar = new ProgressBar(
      stream,
      'rebuild [{bar}] {percentage}% | {done}/{of} {events} applied | {rate} events/s read | ETA {timeLeft}',
      { etaBuffer: 50 },
    );
  }

  start(estimatedTotal: number): void {
    this.expected = estimatedTotal;
    this.bar.start(this.expected, 0, this.payload());
  }

  /** The live versions keep growing while the rebuild runs; the estimate follows them. */
  setEstimatedTotal(total: number): void {
    this.expected = Math.max(this.expected, total);
    this.bar.setTotal(this.expected);
  }

  update(progress: RebuildProgress): void {
    this.applied = Object.values(progress.applied).reduce((a, b) => a + b, 0);
    if (this.applied > this.expected) this.setEstimatedTotal(this.applied);
    const seconds = Math.max(0.001, (Date.now() - this.started) / 1000);
    this.rate = Math.round(progress.eventsRead / seconds);
    this.bar.update(this.applied, this.payload());
  }

  /**
   * "0/0 events applied", "1/1 event applied", "3/600 events applied": the noun follows the total it is read with.
   * The time left is the rebuild's own: cli-progress shows no estimate as "NF" or "NULL" seconds.
   */
  private payload() {
    const left = this.expected - this.applied;
    const timeLeft = left <= 0 ? '0s' : this.rate > 0 ? `${Math.ceil(left / this.rate)}s` : 'unknown';
    return { events: this.expected === 1 ? 'event' : 'events', rate: this.rate, timeLeft };
  }

  stop(): void {
    this.bar.stop();
  }
}
