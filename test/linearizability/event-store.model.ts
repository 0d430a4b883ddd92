/**
 * A sequential model of one stream of an event store: what a single append or whole-stream read
 * must answer, given the events the stream holds, if operations took effect one at a time.
 * The rules are EventStoreDB's decision table (esdb.md §1.2, the server's `IndexWriter.CheckCommit`)
 * and its idempotent-write rules (§2.1), with the PostgreSQL store's declared difference: an id
 * already in the stream is never written twice ('conflict' instead of 'appended', see
 * EventStoreCapabilities in test/contracts/event-store.contract.ts). Linearizability is local, so a
 * history is checked stream by stream against this model.
 */
import type { ExpectedRevision } from '../../src/event-store/event-store.port';

/** The event ids the stream holds, in revision order. */
export type StreamState = readonly string[];

export type Operation = { kind: 'append'; ids: string[]; expected: ExpectedRevision } | { kind: 'read' };

/**
 * What the store answered. A written or recognised append carries the revision and id of the event
 * at the position it was answered with (looked up in the stream's final history; undefined if no
 * event has it), so "told written at r" is checked against which event sits at r.
 */
export type Answer =
  | { kind: 'written'; nextRevision: number; atPosition: { revision: number; id: string } | undefined }
  | { kind: 'conflict'; actual: number | 'no_stream' }
  | { kind: 'read'; ids: string[] };

export type DuplicateIdOutsideItsSlot = 'appended' | 'conflict';

type Decision = { kind: 'write' } | { kind: 'idempotent'; revision: number } | { kind: 'conflict' };

/** What the stream must do with an append (esdb.md §1.2, steps 1 and 4–7; no deletes here). */
export function decide(state: StreamState, ids: string[], expected: ExpectedRevision, duplicates: DuplicateIdOutsideItsSlot): Decision {
  const current = state.length - 1;
  if (current < 0) return expected === 'any' || expected === 'no_stream' ? { kind: 'write' } : { kind: 'conflict' };
  const exact = expected === 'no_stream' ? -1 : expected;
  if (exact === 'any' || exact === 'stream_exists') {
    // Path A (§2.1): the first id decides; every id must be held by this stream to be a duplicate.
    // An id written twice (exact N == current writes without an id check) is found at its FIRST
    // revision: the server's id cache keeps the first record it saw for an id (BoundedCache.PutRecord
    // does not overwrite), as the emulator does (test/esdb-emulator/id-cache.ts).
    const at = ids.map((id) => state.indexOf(id));
    if (at[0] < 0) return duplicates === 'conflict' && at.some((r) => r >= 0) ? { kind: 'conflict' } : { kind: 'write' };
    if (at.some((r) => r < 0)) return { kind: 'conflict' };
    if (duplicates === 'conflict' && at.some((r, i) => r !== at[0] + i)) return { kind: 'conflict' };
    return { kind: 'idempotent', revision: at.at(-1)! };
  }
  if (exact < current) {
    // Path B (§2.1): revision N + i must hold the i-th id.
    return ids.every((id, i) => state[exact + 1 + i] === id) ? { kind: 'idempotent', revision: exact + ids.length } : { kind: 'conflict' };
  }
  if (exact > current) return { kind: 'conflict' };
  // N == current: EventStoreDB writes without a duplicate check; the PostgreSQL store refuses an id it holds.
  return duplicates === 'conflict' && ids.some((id) => state.includes(id)) ? { kind: 'conflict' } : { kind: 'write' };
}

/** The state after `operation`, or undefined when `answer` is not what the model answers from `state`. */
export function step(
  state: StreamState,
  operation: Operation,
  answer: Answer,
  duplicates: DuplicateIdOutsideItsSlot,
): StreamState | undefined {
  if (operation.kind === 'read') {
    return answer.kind === 'read' && answer.ids.length === state.length && answer.ids.every((id, i) => id === state[i]) ? state : undefined;
  }
  const decision = decide(state, operation.ids, operation.expected, duplicates);
  if (decision.kind === 'conflict') {
    const actual = state.length ? state.length - 1 : 'no_stream';
    return answer.kind === 'conflict' && answer.actual === actual ? state : undefined;
  }
  const next = decision.kind === 'write' ? [...state, ...operation.ids] : state;
  const revision = decision.kind === 'write' ? next.length - 1 : decision.revision;
  const answered =
    answer.kind === 'written' &&
    answer.nextRevision === revision &&
    answer.atPosition?.revision === revision &&
    answer.atPosition.id === next[revision];
  return answered ? next : undefined;
}
