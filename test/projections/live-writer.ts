/**
 * Appends the workload through the real event-store port, interleaving streams the way concurrent
 * requests do (each append with the exact expected revision), until stopped.
 */
import type { EventStore } from '../../src/event-store/event-store.port';
import { mixedScripts, type StreamScript } from './workload';

interface Cursor {
  script: StreamScript;
  next: number;
}

export class LiveWriter {
  private stopped = false;
  private loops: Promise<void>[] = [];
  private readonly source: Generator<StreamScript>;
  private readonly active: Cursor[] = [];
  appended = 0;

  constructor(
    private readonly store: EventStore,
    seed: number,
    private readonly options: { concurrency?: number; openStreams?: number; appendsPerSecond?: number } = {},
  ) {
    this.source = mixedScripts(seed);
  }

  /** Appends exactly `count` events (no background loop). */
  async appendCount(count: number): Promise<void> {
    const target = this.appended + count;
    await Promise.all(Array.from({ length: this.options.concurrency ?? 4 }, () => this.loop(() => this.appended < target)));
  }

  start(): void {
    this.loops = Array.from({ length: this.options.concurrency ?? 4 }, () => this.loop(() => !this.stopped));
  }

  async stop(): Promise<number> {
    this.stopped = true;
    await Promise.all(this.loops);
    return this.appended;
  }

  private async loop(keepGoing: () => boolean): Promise<void> {
    const perLoopInterval = this.options.appendsPerSecond ? (1000 * (this.options.concurrency ?? 4)) / this.options.appendsPerSecond : 0;
    let due = performance.now();
    while (keepGoing()) {
      const cursor = this.take();
      const expected = cursor.next === 0 ? 'no_stream' : cursor.next - 1;
      this.appended++;
      await this.store.append(cursor.script.stream, [cursor.script.events[cursor.next]], expected);
      cursor.next++;
      if (cursor.next < cursor.script.events.length) this.active.push(cursor);
      if (perLoopInterval) {
        due += perLoopInterval;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  /** A random open stream, taken out of the pool so no other loop appends to it meanwhile. */
  private take(): Cursor {
    while (this.active.length < (this.options.openStreams ?? 32))
      this.active.push({ script: this.source.next().value as StreamScript, next: 0 });
    const index = Math.floor(Math.random() * this.active.length);
    return this.active.splice(index, 1)[0];
  }
}
