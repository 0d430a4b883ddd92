import type { EventMetadata, EventToAppend } from '../event-store/event-store.port';
import type { DomainEvent, NewEvent } from './decider';
import { deterministicEventId } from './deterministic-event-id';

/** Correlation, causation and actor: what the caller knows about an event before it is recorded. */
export type CommandMetadata = Pick<EventMetadata, 'correlationId' | 'causationId' | 'actor'> & Record<string, unknown>;

/**
 * The stored form of a decided event: an id derived from the stream, the step and the facts (so a
 * retry of the same facts is recognised by the store), and the caller's metadata stamped with the
 * time it was recorded. Every event of one append shares `recordedAt`.
 */
export function toEventToAppend(
  stream: string,
  { event, key }: NewEvent<DomainEvent>,
  metadata: CommandMetadata,
  recordedAt: string,
): EventToAppend {
  return {
    id: deterministicEventId(stream, key, event),
    type: event.type,
    data: event.data as Record<string, unknown>,
    metadata: { ...metadata, recordedAt },
  };
}
