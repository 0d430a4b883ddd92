import type { RecordedEvent } from '../../event-store/event-store.port';

/**
 * Several read models ask for the same event's time; parse each timestamp once. The parsed Date is
 * kept on the event itself under a non-enumerable symbol (invisible to spreads, JSON and equality
 * checks): a WeakMap entry per event cost a rebuild more in garbage collection than the parse.
 */
const PARSED_TIME = Symbol('eventTime');

type WithTime = RecordedEvent & { [PARSED_TIME]?: Date };

/**
 * When the fact happened as far as read models are concerned: the command handler's `recordedAt`
 * (carried identically by both stores), falling back to the store's commit time.
 */
export function eventTime(event: RecordedEvent): Date {
  const cached = (event as WithTime)[PARSED_TIME];
  if (cached) return cached;
  const recorded = event.metadata?.recordedAt ? new Date(event.metadata.recordedAt) : undefined;
  const time = recorded && !Number.isNaN(recorded.getTime()) ? recorded : event.created;
  if (Object.isExtensible(event)) Object.defineProperty(event, PARSED_TIME, { value: time });
  return time;
}
