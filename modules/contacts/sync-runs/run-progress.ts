/**
 * The progress bar of an import on stderr: bytes read of a file (the file's size is known), or pages
 * and records of a pull run so far. A contact source gives no total, so a pull run shows counts, not
 * a bar: a bar over what was fetched so far read 100 % with most of the pages still to come.
 */
import { ProgressBar } from '../../../src/cli/progress-bar';
import type { ImportRunState } from '../import-run.state';

const FORMATS = {
  bytes: 'import [{bar}] {percentage}% | {value}/{total} bytes | {processed} records: {counts}',
  records: 'import | {pages} pages, {processed} records so far: {counts}',
};

export class RunProgressBar {
  private readonly bar: ProgressBar;

  constructor(stream: NodeJS.WritableStream, unit: keyof typeof FORMATS) {
    this.bar = new ProgressBar(stream, FORMATS[unit]);
  }

  /** `total` only where it is known (a file's bytes). */
  update(run: ImportRunState, value = run.processed, total = run.processed): void {
    this.bar.show(value, total, { processed: run.processed, pages: run.pages, counts: summary(run) });
  }

  stop(): void {
    this.bar.stop();
  }
}

export const summary = (run: ImportRunState) =>
  Object.entries(run.counts)
    .map(([outcome, n]) => `${outcome} ${n}`)
    .join(', ') || 'none yet';
