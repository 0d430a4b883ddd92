/**
 * Reads the subscription ahead of the consumer and merges what has piled up into one batch of at
 * most `maxEvents`. While a batch commits, the next events are already being read; when commits are
 * slower than arrivals (catch-up, bursts), the next batch is simply bigger; when caught up, batches
 * stay as small as what arrived. That is the runner's adaptive batching: large when behind, small
 * and immediate when live, whatever batch sizes the store itself produces.
 */
import type { SubscriptionBatch } from '../event-store/event-store.port';

export async function* readAhead(
  source: AsyncIterable<SubscriptionBatch>,
  maxEvents: number,
): AsyncGenerator<SubscriptionBatch, void, undefined> {
  const iterator = source[Symbol.asyncIterator]();
  const queue: SubscriptionBatch[] = [];
  let queuedEvents = 0;
  let ended = false;
  let stopped = false;
  let failure: unknown;
  let wakeConsumer: (() => void) | undefined;
  let wakeReader: (() => void) | undefined;
  const full = () => queuedEvents >= maxEvents || queue.length >= 1000;

  const reader = (async () => {
    try {
      while (!stopped) {
        if (full()) {
          await new Promise<void>((resolve) => (wakeReader = resolve));
          continue;
        }
        const step = await iterator.next();
        if (step.done) break;
        queue.push(step.value);
        queuedEvents += step.value.events.length;
        wakeConsumer?.();
      }
    } catch (error) {
      failure = error;
    } finally {
      ended = true;
      wakeConsumer?.();
    }
  })();

  try {
    for (;;) {
      while (!queue.length && !ended) await new Promise<void>((resolve) => (wakeConsumer = resolve));
      if (!queue.length) {
        if (failure) throw failure;
        return;
      }
      const batch = takeMerged(queue, maxEvents);
      queuedEvents -= batch.events.length;
      wakeReader?.();
      yield batch;
    }
  } finally {
    stopped = true;
    wakeReader?.();
    // The caller closes the subscription, which ends a read still in flight; don't wait for it here.
    void iterator.return?.().catch(() => undefined);
    void reader;
  }
}

/** Takes batches from the front while their events fit in `maxEvents` (at least one batch). */
export function takeMerged(queue: SubscriptionBatch[], maxEvents: number): SubscriptionBatch {
  const first = queue.shift()!;
  if (!queue.length || first.events.length >= maxEvents) return first;
  const events = [...first.events];
  let { checkpoint, caughtUp } = first;
  while (queue.length && events.length + queue[0].events.length <= maxEvents) {
    const next = queue.shift()!;
    events.push(...next.events);
    checkpoint = next.checkpoint ?? checkpoint;
    caughtUp = next.caughtUp;
  }
  return { events, checkpoint, caughtUp };
}
