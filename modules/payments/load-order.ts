import type { EventStore, RecordedEvent } from '../../src/event-store/event-store.port';
import type { OrderEvent } from './order.events';
import { evolveOrder, initialOrderState, isSettled, type OrderState } from './order.state';
import { orderStream } from './order.events';

export interface LoadedOrder {
  state: OrderState;
  revision: number;
}

/** Folds `order-<id>` from the store: always current (the read model may lag). */
export async function loadOrder(store: EventStore, orderId: string): Promise<LoadedOrder> {
  const history = await store.readStream(orderStream(orderId));
  return { state: foldOrder(history), revision: history.length ? history[history.length - 1].revision : -1 };
}

export function foldOrder(history: RecordedEvent[]): OrderState {
  return history.reduce((state, event) => evolveOrder(state, event as unknown as OrderEvent), initialOrderState());
}

/**
 * Long-poll for `?waitMs=`: re-reads the stream until the order settles or the time is up. The wait
 * is bounded (≤ 10 s) and each read is one indexed query.
 */
export async function waitForSettled(store: EventStore, orderId: string, waitMs: number, pollMs = 25): Promise<LoadedOrder> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const loaded = await loadOrder(store, orderId);
    if (isSettled(loaded.state.status) || Date.now() >= deadline) return loaded;
    await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, Math.max(0, deadline - Date.now()))));
  }
}
