/**
 * Where EventStoreDB's shapes meet the port's. The client hands out bigint revisions and positions
 * (esdb.md §5.5); they become numbers and opaque `"<commit>/<prepare>"` checkpoints here, so a bigint
 * never travels further and never meets `JSON.stringify`.
 */
import type { AppendExpectedRevision, Position, ResolvedEvent } from '@eventstore/db-client';
import { decodeCheckpoint, encodeCheckpoint, type Checkpoint } from '../checkpoint';
import type { EventMetadata, ExpectedRevision, RecordedEvent } from '../event-store.port';

export function toPosition(checkpoint: Checkpoint): Position {
  const { major, minor } = decodeCheckpoint(checkpoint);
  return { commit: major, prepare: minor };
}

export function toCheckpoint(position: Position): Checkpoint {
  return encodeCheckpoint(position.commit, position.prepare);
}

/**
 * The server keeps positions as signed 64-bit longs (`TFPos`) and converts −1 to `ulong.MaxValue` on
 * the wire (`Position.FromInt64`, src/EventStore.Core/Services/Transport/Common/Position.cs), so a value
 * above `long.MaxValue` is never a place in the log: it is `Position.End` or the bogus (−1, −1)
 * checkpoint servers 24.10.0–24.10.4 send (`AllSubscriptionFiltered.CatchUp`, fixed in v24.10.5).
 */
const LONG_MAX = 2n ** 63n - 1n;

export function isLogPosition(position: Position): boolean {
  return position.commit <= LONG_MAX && position.prepare <= LONG_MAX;
}

/** `$all` order: by commit, then prepare (esdb.md §4.1). */
export function comparePositions(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

export function toExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  return typeof expected === 'number' ? BigInt(expected) : expected;
}

/** The event's `$all` position; servers before 22.6 leave it off stream reads but send the commit position. */
export function positionOf(resolved: ResolvedEvent): Position | undefined {
  if (resolved.event?.position) return resolved.event.position;
  return resolved.commitPosition === undefined ? undefined : { commit: resolved.commitPosition, prepare: resolved.commitPosition };
}

/** The store's own streams and event types (`$$order-1`, `$ce-order`, `$metadata`, `$>`) — never ours. */
export function isSystemEvent(resolved: ResolvedEvent): boolean {
  const event = resolved.event;
  return !event || event.streamId.startsWith('$') || event.type.startsWith('$');
}

export function toRecordedEvent(resolved: ResolvedEvent): RecordedEvent {
  const event = resolved.event!;
  return {
    id: event.id,
    stream: event.streamId,
    revision: Number(event.revision),
    position: toCheckpoint(positionOf(resolved)!),
    type: event.type,
    // Everything Idem writes is JSON; a foreign binary event keeps its raw bytes rather than being dropped.
    data: event.data as Record<string, unknown>,
    metadata: (event.metadata ?? {}) as EventMetadata,
    created: event.created,
  };
}
