/**
 * The rebuild's progress bar: events applied (all read models together) against the live versions'
 * event counts (what the new versions will have to apply), with the read rate and an ETA. Written to
 * stderr; without a terminal it prints a line every few seconds instead of redrawing.
 */
import { SingleBar } from 'cli-progress';
import type { RebuildProgress } from '../../subscriptions/read-models/rebuild';

export class RebuildProgressBar {
  private readonly bar: SingleBar;
  private readonly started = Date.now();
  private total = 1;
  private running = false;

  constructor(stream: NodeJS.WritableStream) {
    this.bar = new SingleBar({
      stream: stream as NodeJS.WriteStream,
      format: 'rebuild [{bar}] {percentage}% | {value}/{total} events applied | {rate} events/s read | ETA {eta_formatted}',
      noTTYOutput: true,
      notTTYSchedule: 2000,
      etaBuffer: 50,
      hideCursor: true,
    });
  }

  start(estimatedTotal: number): void {
    this.total = Math.max(1, estimatedTotal);
    this.running = true;
    this.bar.start(this.total, 0, { rate: 0 });
  }

  /** The live versions keep growing while the rebuild runs; the estimate follows them. */
  setEstimatedTotal(total: number): void {
    this.total = Math.max(this.total, total);
    if (this.running) this.bar.setTotal(this.total);
  }

  update(progress: RebuildProgress): void {
    if (!this.running) return;
    const applied = Object.values(progress.applied).reduce((a, b) => a + b, 0);
    if (applied > this.total) this.setEstimatedTotal(applied);
    const seconds = Math.max(0.001, (Date.now() - this.started) / 1000);
    this.bar.update(applied, { rate: Math.round(progress.eventsRead / seconds) });
  }

  stop(): void {
    if (this.running) this.bar.stop();
    this.running = false;
  }
}
