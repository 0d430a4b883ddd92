/**
 * The progress bar of an import on stderr: bytes read of a file, or pages and records of a pull run,
 * with the outcome counts so far. Without a terminal it prints a line every few seconds.
 */
import { SingleBar } from 'cli-progress';
import type { ImportRunState } from '../import-run.state';

export class RunProgressBar {
  private readonly bar: SingleBar;
  private started = false;

  constructor(stream: NodeJS.WritableStream, unit: 'bytes' | 'records') {
    this.bar = new SingleBar({
      stream: stream as NodeJS.WriteStream,
      format: `import [{bar}] {percentage}% | {value}/{total} ${unit} | {processed} records: {counts}`,
      noTTYOutput: true,
      notTTYSchedule: 2000,
      hideCursor: true,
    });
  }

  update(value: number, total: number, run: ImportRunState): void {
    const payload = { processed: run.processed, counts: summary(run) };
    if (!this.started) {
      this.bar.start(Math.max(total, 1), value, payload);
      this.started = true;
    } else {
      this.bar.setTotal(Math.max(total, 1));
      this.bar.update(value, payload);
    }
  }

  stop(): void {
    if (this.started) this.bar.stop();
  }
}

export const summary = (run: ImportRunState) =>
  Object.entries(run.counts)
    .map(([outcome, n]) => `${outcome} ${n}`)
    .join(', ') || 'none yet';
