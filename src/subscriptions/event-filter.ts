import { streamCategory } from '../event-store/append-validation';
import type { EventFilter, RecordedEvent } from '../event-store/event-store.port';

export function matchesFilter(filter: EventFilter | undefined, event: RecordedEvent): boolean {
  if (filter?.streamCategories?.length && !filter.streamCategories.includes(streamCategory(event.stream))) return false;
  if (filter?.eventTypes?.length && !filter.eventTypes.includes(event.type)) return false;
  return true;
}

/**
 * The narrowest single filter that lets through everything any of `filters` wants. Categories and
 * types are ANDed by the store, so a dimension is kept only when every filter restricts it.
 */
export function unionFilter(filters: EventFilter[]): EventFilter {
  const union: EventFilter = {};
  if (filters.length && filters.every((f) => f.streamCategories?.length)) {
    union.streamCategories = [...new Set(filters.flatMap((f) => f.streamCategories!))].sort();
  }
  if (filters.length && filters.every((f) => f.eventTypes?.length)) {
    union.eventTypes = [...new Set(filters.flatMap((f) => f.eventTypes!))].sort();
  }
  return union;
}
