import { randomUUID } from 'node:crypto';
import type { EventStore, EventSubscription, EventToAppend, RecordedEvent, SubscribeOptions } from '../../src/event-store/event-store.port';

/** A stream category nobody else in the run uses, so readAll/subscribe assertions can filter to it. */
export function uniqueCategory(): string {
  return `t${randomUUID().replace(/-/g, '').slice(0, 12)}`;
}

export function testEvent(type = 'SomethingHappened', data: Record<string, unknown> = {}): EventToAppend {
  return {
    id: randomUUID(),
    type,
    data,
    metadata: {
      correlationId: randomUUID(),
      causationId: randomUUID(),
      actor: { role: 'test', tokenId: 'test' },
      recordedAt: new Date().toISOString(),
    },
  };
}

export function testEvents(count: number, type = 'SomethingHappened'): EventToAppend[] {
  return Array.from({ length: count }, (_, index) => testEvent(type, { index }));
}

/**
 * Reads a category's whole history once everything appended before the call has settled. A read of
 * the log returns only what settled: on PostgreSQL, transactions older than the oldest one still
 * running anywhere in the cluster, and the suites share one cluster, so another suite's long
 * transaction can hide events that were written (a count of 0 for 6 written, in a CI run). An event
 * appended now, in a category of its own, can show only once everything before it has settled (its
 * transaction began after theirs ended); then the category is read, and counts what was written.
 */
export async function readCategorySettled(store: EventStore, category: string): Promise<RecordedEvent[]> {
  const fence = uniqueCategory();
  await store.append(`${fence}-fence`, [testEvent()], 'no_stream');
  while ((await readCategory(store, fence)).length === 0);
  return readCategory(store, category);
}

/** Reads a category's whole history forwards, page by page. */
export async function readCategory(store: EventStore, category: string): Promise<RecordedEvent[]> {
  const all: RecordedEvent[] = [];
  for (;;) {
    const page = await store.readAll({ after: all.at(-1)?.position, maxCount: 1000, filter: { streamCategories: [category] } });
    all.push(...page);
    if (page.length < 1000) return all;
  }
}

/**
 * Consumes a subscription until `until` says enough; fails (instead of hanging) when nothing arrives
 * for `idleTimeoutMs`. Returns the events and the last checkpoint seen.
 */
export async function collect(
  subscription: EventSubscription,
  until: (events: RecordedEvent[]) => boolean,
  idleTimeoutMs = 15_000,
): Promise<{ events: RecordedEvent[]; checkpoints: string[] }> {
  const events: RecordedEvent[] = [];
  const checkpoints: string[] = [];
  const iterator = subscription[Symbol.asyncIterator]();
  try {
    while (!until(events)) {
      let timer: NodeJS.Timeout | undefined;
      const idle = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`subscription idle for ${idleTimeoutMs} ms after ${events.length} events`)),
          idleTimeoutMs,
        );
      });
      const step = await Promise.race([iterator.next(), idle]).finally(() => clearTimeout(timer));
      if (step.done) break;
      events.push(...step.value.events);
      if (step.value.checkpoint) checkpoints.push(step.value.checkpoint);
    }
  } finally {
    await subscription.close();
  }
  return { events, checkpoints };
}

export function subscribeToCategory(store: EventStore, category: string, options: SubscribeOptions = {}): EventSubscription {
  return store.subscribeToAll({ ...options, filter: { streamCategories: [category] } });
}
