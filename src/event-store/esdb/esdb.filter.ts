/**
 * The port's `EventFilter` on EventStoreDB. The 6.x client offers one server-side expression per
 * subscription (stream name *or* event type) and none for reads, so the server narrows what it can and
 * every event is checked again here — including the rule that `$` streams and types are never ours
 * (esdb.md §4.3: `excludeSystemEvents()` alone would let `$projections-*-result` events through).
 */
import { EVENT_TYPE, STREAM_NAME, type ResolvedEvent } from '@eventstore/db-client';
import { streamCategory } from '../append-validation';
import type { EventFilter } from '../event-store.port';
import { isSystemEvent } from './esdb.conversions';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Server-side narrowing: by category when given (a category is the text before the first dash), else by type, else "not a `$` stream". */
export function serverFilterOf(filter: EventFilter | undefined): { filterOn: typeof STREAM_NAME | typeof EVENT_TYPE; regex: string } {
  if (filter?.streamCategories?.length) {
    return { filterOn: STREAM_NAME, regex: `^(?:${filter.streamCategories.map(escape).join('|')})(?:-|$)` };
  }
  if (filter?.eventTypes?.length) return { filterOn: EVENT_TYPE, regex: `^(?:${filter.eventTypes.map(escape).join('|')})$` };
  return { filterOn: STREAM_NAME, regex: '^[^$]' };
}

export function eventMatcher(filter: EventFilter | undefined): (resolved: ResolvedEvent) => boolean {
  const categories = filter?.streamCategories?.length ? new Set(filter.streamCategories) : undefined;
  const types = filter?.eventTypes?.length ? new Set(filter.eventTypes) : undefined;
  return (resolved) =>
    !isSystemEvent(resolved) &&
    (!categories || categories.has(streamCategory(resolved.event!.streamId))) &&
    (!types || types.has(resolved.event!.type));
}
