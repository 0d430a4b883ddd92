/**
 * Whole-stream reads asked for in the same turn of the event loop go to PostgreSQL as one query.
 *
 * Every command (and every duplicate of one) starts by reading its stream from the beginning. Under
 * load, many requests reach that read in one turn of the loop, and each separate query costs the
 * process a pool checkout, a socket write that wakes a backend, and a result to set up: on this
 * project's 2-core machine the write alone was a third of the service's main thread while it
 * answered duplicates (docs/BENCHMARKS.md). Collected until the loop's check phase (setImmediate)
 * and read with `stream_name = ANY(…)`, N reads cost one of each.
 *
 * Nothing gets staler: the combined query starts after every read it answers was asked for, in one
 * snapshot, so each caller sees at least what a query of its own would have seen. A read asked for
 * alone still runs the single-stream statement. A failed query fails every read it carried, as N
 * separate queries would have failed on the same outage.
 */
import type { RecordedEvent } from '../event-store.port';

/** Reads several whole streams at once: the events of each stream, in revision order. */
export type ReadWholeStreams = (streams: string[]) => Promise<Map<string, RecordedEvent[]>>;

/** More names than this go out as several queries, so that one answer never grows without bound. */
export const MAX_STREAMS_PER_READ = 64;

interface Waiter {
  resolve(events: RecordedEvent[]): void;
  reject(error: unknown): void;
}

export class WholeStreamReads {
  private waiting = new Map<string, Waiter[]>();
  private scheduled = false;

  constructor(
    private readonly readOne: (stream: string) => Promise<RecordedEvent[]>,
    private readonly readMany: ReadWholeStreams,
  ) {}

  read(stream: string): Promise<RecordedEvent[]> {
    return new Promise((resolve, reject) => {
      const waiters = this.waiting.get(stream);
      if (waiters) waiters.push({ resolve, reject });
      else this.waiting.set(stream, [{ resolve, reject }]);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    const waiting = this.waiting;
    this.waiting = new Map();
    this.scheduled = false;
    const streams = [...waiting.keys()];
    if (streams.length === 1) {
      this.answer(waiting, this.readOne(streams[0]).then((events) => new Map([[streams[0], events]])));
      return;
    }
    for (let i = 0; i < streams.length; i += MAX_STREAMS_PER_READ) {
      const chunk = streams.slice(i, i + MAX_STREAMS_PER_READ);
      this.answer(new Map(chunk.map((s) => [s, waiting.get(s)!])), this.readMany(chunk));
    }
  }

  private answer(waiting: Map<string, Waiter[]>, read: Promise<Map<string, RecordedEvent[]>>): void {
    read.then(
      (byStream) => {
        for (const [stream, waiters] of waiting) {
          const events = byStream.get(stream) ?? [];
          // Two callers of one stream get arrays of their own (the events themselves are shared).
          waiters.forEach((waiter, i) => waiter.resolve(i === 0 ? events : events.slice()));
        }
      },
      (error: unknown) => {
        for (const waiters of waiting.values()) for (const waiter of waiters) waiter.reject(error);
      },
    );
  }
}
