import type { EventStore, RecordedEvent } from '../../src/event-store/event-store.port';
import type { LoadedStream } from '../../src/command-handling/command-handler';
import { orderCommands } from './order.commands';
import { isSettled, type OrderState } from './order.state';

export type LoadedOrder = LoadedStream<OrderState>;

/** Folds `order-<id>` from the store: always current (the read model may lag). */
export const loadOrder = (store: EventStore, orderId: string): Promise<LoadedOrder> => orderCommands.load(store, orderId);

export const foldOrder = (history: RecordedEvent[]): OrderState => orderCommands.fold(history);

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
