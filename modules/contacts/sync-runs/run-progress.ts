/**
 * The progress bar of an import on stderr: bytes read of a file, or pages and records of a pull run,
 * with the outcome counts so far.
 */
import { ProgressBar } from '../../../src/cli/progress-bar';
import type { ImportRunState } from '../import-run.state';

export class RunProgressBar {
  private readonly bar: ProgressBar;

  constructor(stream: NodeJS.WritableStream, unit: 'bytes' | 'records') {
    this.bar = new ProgressBar(stream, `import [{bar}] {percentage}% | {value}/{total} ${unit} | {processed} records: {counts}`);
  }

  update(value: number, total: number, run: ImportRunState): void {
    this.bar.show(value, total, { processed: run.processed, counts: summary(run) });
  }

  stop(): void {
    this.bar.stop();
  }
}

export const summary = (run: ImportRunState) =>
  Object.entries(run.counts)
    .map(([outcome, n]) => `${outcome} ${n}`)
    .join(', ') || 'none yet';
