import { deterministicEventId } from '../../src/command-handling/deterministic-event-id';
import type { EventMetadata, EventStore } from '../../src/event-store/event-store.port';
import { orderStream, type OrderEvent } from './order.events';

export type BackgroundMetadata = Omit<EventMetadata, 'recordedAt'>;

/**
 * Appends one order event at the exact revision the caller decided on. `step` names the fact
 * (e.g. `outcome/r1/2`) so a retried append of the same fact is recognised by the store; a fact
 * only one of several racing runs may record names that run too (see chargeOrder).
 */
export async function appendOrderEvent(
  store: EventStore,
  orderId: string,
  event: OrderEvent,
  step: string,
  expectedRevision: number,
  metadata: BackgroundMetadata,
  now: Date,
): Promise<number> {
  const stream = orderStream(orderId);
  const result = await store.append(
    stream,
    [{ id: deterministicEventId(stream, step, event), type: event.type, data: event.data as unknown as Record<string, unknown>, metadata: { ...metadata, recordedAt: now.toISOString() } as EventMetadata }],
    expectedRevision,
  );
  return result.nextRevision;
}
