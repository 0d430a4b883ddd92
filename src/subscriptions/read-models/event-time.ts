import type { RecordedEvent } from '../../event-store/event-store.port';

/** Several read models ask for the same event's time; parse each timestamp once. */
const parsed = new WeakMap<RecordedEvent, Date>();

/**
 * When the fact happened as far as read models are concerned: the command handler's `recordedAt`
 * (carried identically by both stores), falling back to the store's commit time.
 */
export function eventTime(event: RecordedEvent): Date {
  let time = parsed.get(event);
  if (!time) {
    const recorded = event.metadata?.recordedAt ? new Date(event.metadata.recordedAt) : undefined;
    time = recorded && !Number.isNaN(recorded.getTime()) ? recorded : event.created;
    parsed.set(event, time);
  }
  return time;
}
