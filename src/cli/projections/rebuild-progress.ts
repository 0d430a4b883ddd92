/**
 * The rebuild's progress bar: events applied (all read models together) against the live versions'
 * event counts (what the new versions will have to apply), with the read rate and an ETA.
 */
import { ProgressBar } from '../progress-bar';
import type { RebuildProgress } from '../../subscriptions/read-models/rebuild';

export class RebuildProgressBar {
  private readonly bar: ProgressBar;
  private readonly started = Date.now();
  private total = 1;
  private applied = 0;

  constructor(stream: NodeJS.WritableStream) {
    this.bar = new ProgressBar(
      stream,
      'rebuild [{bar}] {percentage}% | {value}/{total} {events} applied | {rate} events/s read | ETA {eta_formatted}',
      { etaBuffer: 50 },
    );
  }

  start(estimatedTotal: number): void {
    this.total = Math.max(1, estimatedTotal);
    this.bar.start(this.total, 0, { rate: 0, events: this.noun() });
  }

  /** The live versions keep growing while the rebuild runs; the estimate follows them. */
  setEstimatedTotal(total: number): void {
    const noun = this.noun();
    this.total = Math.max(this.total, total);
    this.bar.setTotal(this.total);
    if (this.noun() !== noun) this.bar.update(this.applied, { events: this.noun() });
  }

  update(progress: RebuildProgress): void {
    this.applied = Object.values(progress.applied).reduce((a, b) => a + b, 0);
    if (this.applied > this.total) this.setEstimatedTotal(this.applied);
    const seconds = Math.max(0.001, (Date.now() - this.started) / 1000);
    this.bar.update(this.applied, { rate: Math.round(progress.eventsRead / seconds), events: this.noun() });
  }

  /** "0/1 event applied", "3/600 events applied": the noun follows the total it is read with. */
  private noun(): string {
    return this.total === 1 ? 'event' : 'events';
  }

  stop(): void {
    this.bar.stop();
  }
}
