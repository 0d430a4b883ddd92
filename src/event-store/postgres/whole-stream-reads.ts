/**
 * Whole-stream reads asked for in the same turn of the event loop go to PostgreSQL as one query
 * (`stream_name = ANY(…)`, one walk of the primary key per stream; see per-turn-batcher.ts).
 *
 * Every command, and every duplicate of one, starts by reading its stream from the beginning, so
 * this is the service's commonest statement: answering duplicates, the separate queries' socket
 * writes alone were a third of the service's main thread.
 *
 * Nothing gets staler: the combined query starts after every read it answers was asked for, in one
 * snapshot, so each caller sees at least what a query of its own would have seen. A read asked for
 * alone still runs the single-stream statement. A failed query fails every read it carried, as N
 * separate queries would have failed on the same outage.
 */
import type { RecordedEvent } from '../event-store.port';
import { PerTurnBatcher, chunks } from './per-turn-batcher';

/** Reads several whole streams at once: the events of each stream, in revision order. */
export type ReadWholeStreams = (streams: string[]) => Promise<Map<string, RecordedEvent[]>>;

/**
 * More names than this go out as several queries, so that one answer never grows without bound; a
 * contact import's batch or page of 1,000 is one.
 */
export const MAX_STREAMS_PER_READ = 1000;

export function wholeStreamReads(
  readOne: (stream: string) => Promise<RecordedEvent[]>,
  readMany: ReadWholeStreams,
): PerTurnBatcher<string, RecordedEvent[]> {
  return new PerTurnBatcher<string, RecordedEvent[]>((streams) => {
    const distinct = [...new Set(streams)];
    const answered = new Map<string, Promise<RecordedEvent[]>>();
    if (distinct.length === 1) answered.set(distinct[0], readOne(distinct[0]));
    else {
      for (const chunk of chunks(distinct, MAX_STREAMS_PER_READ)) {
        const read = readMany(chunk);
        for (const stream of chunk)
          answered.set(
            stream,
            read.then((byStream) => byStream.get(stream) ?? []),
          );
      }
    }
    // Two callers of one stream get arrays of their own (the events themselves are shared).
    const given = new Set<string>();
    return streams.map((stream) => {
      const events = answered.get(stream)!;
      if (given.has(stream)) return events.then((list) => list.slice());
      given.add(stream);
      return events;
    });
  });
}
