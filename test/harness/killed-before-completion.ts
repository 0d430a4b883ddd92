import type { EventStore } from '../../src/event-store/event-store.port';

/**
 * `store` as a run driver sees it when its process dies inside the append that ends a run: the events
 * before `ImportRunCompleted` are written (the append is split as a page's events may be, its last event
 * alone in the next chunk) and then the append throws `killed`. The last page or slice is recorded, the
 * run not completed: what a resumed driver must finish without reading anything again.
 */
export function killedBeforeCompletion(store: EventStore): EventStore {
  return Object.create(store, {
    append: {
      value: async (...args: Parameters<EventStore['append']>) => {
        const [stream, events, expected] = args;
        if (events.at(-1)?.type !== 'ImportRunCompleted') return store.append(...args);
        await store.append(stream, events.slice(0, -1), expected);
        throw new Error('killed');
      },
    },
  }) as EventStore;
}
