/**
 * The one way `idem` commands show progress (rebuild, import, export): a cli-progress bar on stderr,
 * so stdout stays parseable. On a terminal it redraws; without one (CI, a log file) it prints a line
 * every few seconds instead. Each command brings its own format.
 */
import { SingleBar, type Options } from 'cli-progress';
import { LinesOnce } from './lines-once';

type Payload = Record<string, unknown>;

export class ProgressBar {
  private readonly bar: SingleBar;
  private readonly lines?: LinesOnce;
  private running = false;
  /** The work as it is: a format shows them as `{done}/{of}`. */
  private done = 0;
  private of = 0;

  constructor(stream: NodeJS.WritableStream, format: string, options: Pick<Options, 'etaBuffer'> = {}) {
    this.lines = (stream as NodeJS.WriteStream).isTTY ? undefined : new LinesOnce(stream);
    this.bar = new SingleBar({
      stream: (this.lines?.stream ?? stream) as NodeJS.WriteStream,
      format,
      noTTYOutput: true,
      notTTYSchedule: 2000,
      hideCursor: true,
      ...options,
    });
  }

  start(total: number, value: number, payload?: Payload): void {
    [this.of, this.done] = [total, value];
    this.bar.start(this.barTotal(), this.barValue(), { ...payload, ...this.counts() });
    this.running = true;
  }

  /** Moves the bar, starting it on the first call (for work whose total is known only once it runs). */
  show(value: number, total: number, payload?: Payload): void {
    if (!this.running) return this.start(total, value, payload);
    this.setTotal(total);
    this.update(value, payload);
  }

  setTotal(total: number): void {
    this.of = total;
    if (!this.running) return;
    this.bar.setTotal(this.barTotal());
    this.bar.update(this.barValue(), this.counts());
  }

  update(value: number, payload?: Payload): void {
    this.done = value;
    if (this.running) this.bar.update(this.barValue(), { ...payload, ...this.counts() });
  }

  /** Ends the bar's line; stopping a bar never started (or stopped already) does nothing. */
  stop(): void {
    if (this.running) {
      this.lines?.closing();
      this.bar.stop();
    }
    this.running = false;
  }

  /**
   * cli-progress needs a total of one at least: work of nothing (an empty file, an empty history) is that
   * one step, done — it showed "0% | 0/1" — and `{done}/{of}` still says 0/0.
   */
  private barTotal = () => Math.max(this.of, 1);
  private barValue = () => (this.of === 0 ? 1 : this.done);
  private counts = () => ({ done: this.done, of: this.of });
}
