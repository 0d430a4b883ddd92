/**
 * Single-event appends (no_stream or an exact revision, the command handlers' case) made in the same
 * turn of the event loop are written by one statement in one transaction: one commit, one WAL
 * flush, one round trip for all of them (per-turn-batcher.ts). EventStoreDB's writer groups
 * concurrent writes to its log the same way.
 *
 * Each append keeps its own answer. The row the statement wrote for that append's own expectation
 * (same stream, id and revision) answers its caller with its position;
 * a row it did not write (the revision or the id was taken) sends that caller on to idem_append,
 * which tells a conflict from a retried duplicate, exactly as after a refused single INSERT. If the
 * statement fails as a whole (one event's JSON PostgreSQL will not take, a lost connection), every
 * append is tried again on its own, so each gets its own outcome: an append that was in fact
 * committed is then found as a duplicate, with its original position.
 */
import type { Checkpoint, EventToAppend } from '../event-store.port';
import { PerTurnBatcher } from './per-turn-batcher';

export interface OneAppend {
  stream: string;
  /** -1 for no_stream, else the exact revision the stream must be at. */
  expectedCode: number;
  event: EventToAppend;
  data: string;
  metadata: string;
}

/** The position written, or undefined when the expectation did not hold as the fast path needs. */
type OneAppendAnswer = Checkpoint | undefined;

/** Writes a group; answers `groupKey(stream, event id, revision)` → position for the rows it wrote. */
export type WriteGroup = (json: string) => Promise<Map<string, Checkpoint>>;

/** A contact import's batch or page (1,000 records) commits as one group: one WAL flush, not sixteen. */
export const MAX_APPENDS_PER_GROUP = 1000;
/** A group's JSON stays under about this many characters (one event may be up to 1 MiB). */
export const MAX_GROUP_BYTES = 4 * 1024 * 1024;

/**
 * A written row's identity as its caller asked for it: the stream, the event id AND the revision
 * (expected + 1). Matching on stream and id alone answered a refused append with the row another
 * caller wrote for the same id under another expectation.
 */
export const groupKey = (stream: string, eventId: string, revision: number | string) =>
  `${stream}\u0000${eventId.toLowerCase()}\u0000${revision}`;

export function groupedAppends(
  appendAlone: (append: OneAppend) => Promise<OneAppendAnswer>,
  writeGroup: WriteGroup,
): PerTurnBatcher<OneAppend, OneAppendAnswer> {
  return new PerTurnBatcher<OneAppend, OneAppendAnswer>((appends) => {
    const answers = new Map<OneAppend, Promise<OneAppendAnswer>>();
    for (const group of groupsOf(appends)) {
      // An append alone in its turn (or its group) keeps its own single-row statement.
      if (group.length === 1) {
        answers.set(group[0], appendAlone(group[0]));
        continue;
      }
      const written = writeGroup(`[${group.map(toJson).join(',')}]`);
      for (const append of group) {
        answers.set(
          append,
          written.then(
            (positions) => positions.get(groupKey(append.stream, append.event.id, append.expectedCode + 1)),
            () => appendAlone(append),
          ),
        );
      }
    }
    return appends.map((append) => answers.get(append)!);
  });
}

const byStream = (a: OneAppend, b: OneAppend) => (a.stream < b.stream ? -1 : a.stream > b.stream ? 1 : 0);

/** Data and metadata are already JSON text (prepareAppend): they go in as they are. */
function toJson(append: OneAppend): string {
  return `{"stream_name":${JSON.stringify(append.stream)},"expected":${append.expectedCode},"event_id":${JSON.stringify(append.event.id)},"event_type":${JSON.stringify(append.event.type)},"data":${append.data},"metadata":${append.metadata}}`;
}

/**
 * Rows go in by stream name, in every group of every process: two groups that both write streams X
 * and Y (duplicate requests, two api processes) then take their keys in the same order, so one
 * waits for the other instead of each holding a key the other needs (a deadlock, which PostgreSQL
 * breaks only after deadlock_timeout, 1 s, by failing one group).
 */
function groupsOf(appends: OneAppend[]): OneAppend[][] {
  const groups: OneAppend[][] = [];
  let current: OneAppend[] = [];
  let bytes = 0;
  for (const append of [...appends].sort(byStream)) {
    const size = append.data.length + append.metadata.length + append.stream.length + 200;
    if (current.length && (current.length === MAX_APPENDS_PER_GROUP || bytes + size > MAX_GROUP_BYTES)) {
      groups.push(current);
      current = [];
      bytes = 0;
    }
    current.push(append);
    bytes += size;
  }
  if (current.length) groups.push(current);
  return groups;
}
