/**
 * The port's `EventFilter` on EventStoreDB. The 6.x client offers one server-side expression per
 * subscription (stream name *or* event type) and none for reads, so the server narrows what it can and
 * every event is checked again here — including the rule that `$` streams and types are never ours
 * (esdb.md §4.3: `excludeSystemEvents()` alone would let `$projections-*-result` events through).
 */
import { EVENT_TYPE, STREAM_NAME, type ResolvedEvent } from '@eventstore/db-client';
import { streamCategory } from '../append-validation';
import type { EventFilter, EventFilterAlternative } from '../event-store.port';
import { isSystemEvent } from './esdb.conversions';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Server-side narrowing, a superset of what `filter` passes: by category when every event that passes
 * has one of a known set (the filter's own categories, else those of its alternatives when each has
 * some; a category is the text before the first dash), else by type in the same way, else "not a `$` stream".
 */
export function serverFilterOf(filter: EventFilter | undefined): { filterOn: typeof STREAM_NAME | typeof EVENT_TYPE; regex: string } {
  const categories = narrowedTo(filter, 'streamCategories');
  if (categories) return { filterOn: STREAM_NAME, regex: `^(?:${categories.map(escape).join('|')})(?:-|$)` };
  const types = narrowedTo(filter, 'eventTypes');
  if (types) return { filterOn: EVENT_TYPE, regex: `^(?:${types.map(escape).join('|')})$` };
  return { filterOn: STREAM_NAME, regex: '^[^$]' };
}

function narrowedTo(filter: EventFilter | undefined, dimension: keyof EventFilterAlternative): string[] | undefined {
  if (filter?.[dimension]?.length) return filter[dimension];
  const alternatives = filter?.anyOf ?? [];
  if (!alternatives.length || !alternatives.every((a) => a[dimension]?.length)) return undefined;
  return [...new Set(alternatives.flatMap((a) => a[dimension]!))];
}

/** Whether `filter` may drop events that are not `$` ones (a read then pages through more of `$all`). */
export function restrictsEvents(filter: EventFilter | undefined): boolean {
  return [filter, ...(filter?.anyOf ?? [])].some((f) => f?.streamCategories?.length || f?.eventTypes?.length);
}

/** The exact filter, checked on every event the server sends: `$` events, the filter's own fields, then one of its alternatives. */
export function eventMatcher(filter: EventFilter | undefined): (resolved: ResolvedEvent) => boolean {
  const own = checkOf(filter ?? {});
  const alternatives = filter?.anyOf?.length ? filter.anyOf.map(checkOf) : undefined;
  return (resolved) => {
    if (isSystemEvent(resolved)) return false;
    const category = streamCategory(resolved.event!.streamId);
    const type = resolved.event!.type;
    return own(category, type) && (!alternatives || alternatives.some((check) => check(category, type)));
  };
}

function checkOf(filter: EventFilterAlternative): (category: string, type: string) => boolean {
  const categories = filter.streamCategories?.length ? new Set(filter.streamCategories) : undefined;
  const types = filter.eventTypes?.length ? new Set(filter.eventTypes) : undefined;
  return (category, type) => (!categories || categories.has(category)) && (!types || types.has(type));
}
