/**
 * The progress bar of an export on stderr, as the import's (contacts' run-progress.ts). Without a
 * terminal it prints a line every few seconds.
 */
import { SingleBar } from 'cli-progress';

export class ExportProgressBar {
  private readonly bar: SingleBar;
  private started = false;

  constructor(stream: NodeJS.WritableStream) {
    this.bar = new SingleBar({
      stream: stream as NodeJS.WriteStream,
      format: 'export [{bar}] {percentage}% | {value}/{total} events',
      noTTYOutput: true,
      notTTYSchedule: 2000,
      hideCursor: true,
    });
  }

  update(written: number, total: number): void {
    if (!this.started) {
      this.bar.start(Math.max(total, 1), written);
      this.started = true;
    } else this.bar.update(written);
  }

  stop(): void {
    if (this.started) this.bar.stop();
  }
}
