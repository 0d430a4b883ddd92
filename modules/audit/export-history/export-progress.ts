/** The progress bar of an export on stderr: events written against the chain's length. */
import { ProgressBar } from '../../../src/cli/progress-bar';

export class ExportProgressBar {
  private readonly bar: ProgressBar;

  constructor(stream: NodeJS.WritableStream) {
    this.bar = new ProgressBar(stream, 'export [{bar}] {percentage}% | {done}/{of} events');
  }

  update(written: number, total: number): void {
    this.bar.show(written, total);
  }

  stop(): void {
    this.bar.stop();
  }
}
