import type { EventStore, RecordedEvent } from '../../src/event-store/event-store.port';
import type { LoadedStream } from '../../src/command-handling/command-handler';
import { orderCommands } from './order.commands';
import { isSettled, type OrderState } from './order.state';

export type LoadedOrder = LoadedStream<OrderState>;

/** Folds `order-<id>` from the store: always current (the read model may lag). */
export const loadOrder = (store: EventStore, orderId: string): Promise<LoadedOrder> => orderCommands.load(store, orderId);

export const foldOrder = (history: RecordedEvent[]): OrderState => orderCommands.fold(history);

/**
 * The order as the request answered under `idempotencyKey` left it, when a later request followed it
 * (a new request after a decline): a retry under the old key is answered that request's outcome, the
 * decline, not the later request's charge. The key names its request in the stream when it created
 * it, or in `keyOnRecord` when it came on a duplicate (request-keys.ts). Undefined when no request was
 * made under the key, or when it is the latest one (the current state is then its answer).
 */
export function orderAsLeftByRequest(
  history: RecordedEvent[],
  idempotencyKey: string,
  keyOnRecord?: { requestNumber: number },
): LoadedOrder | undefined {
  const isRequest = (event: RecordedEvent) => event.type === 'ChargeRequested';
  const start = history.findIndex(
    (event) =>
      isRequest(event) && (event.data.idempotencyKey === idempotencyKey || event.data.requestNumber === keyOnRecord?.requestNumber),
  );
  const next = start < 0 ? -1 : history.findIndex((event, i) => i > start && isRequest(event));
  if (next < 0) return undefined;
  const left = history.slice(0, next);
  return { state: foldOrder(left), revision: left[left.length - 1].revision };
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
