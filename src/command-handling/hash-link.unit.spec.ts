import { randomUUID } from 'node:crypto';
import type { EventToAppend, RecordedEvent } from '../event-store/event-store.port';
import { canonicalJson, checkStreamLinks, eventHash, linkEvents, PREVIOUS_EVENT_HASH } from './hash-link';

const metadata = { correlationId: 'c', causationId: 'c', actor: { role: 'test', tokenId: 't' }, recordedAt: '2026-12-01T00:00:00.000Z' };
const toAppend = (n: number): EventToAppend => ({ id: randomUUID(), type: 'Happened', data: { n, nested: { b: 2, a: 1 } }, metadata });

/** What a store gives back for events appended at revisions 0…: the same id, type, data and metadata. */
function recorded(stream: string, events: EventToAppend[], from = 0): RecordedEvent[] {
  return events.map((e, i) => ({ ...e, stream, revision: from + i, position: `0/${i}` as never, created: new Date() }));
}

function linkedStream(stream: string, count: number): RecordedEvent[] {
  const first = recorded(stream, linkEvents(stream, { revision: -1 }, [toAppend(0), toAppend(1)]));
  const later = linkEvents(
    stream,
    { revision: 1, event: first[1] },
    Array.from({ length: count - 2 }, (_, i) => toAppend(i + 2)),
  );
  return [...first, ...recorded(stream, later, 2)];
}

describe('canonicalJson', () => {
  it('writes one text per value whatever order its keys were built in', () => {
    expect(canonicalJson({ b: [1, { y: null, x: 'é' }], a: true })).toBe('{"a":true,"b":[1,{"x":"é","y":null}]}');
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
    expect(canonicalJson({ a: undefined, b: [undefined] })).toBe('{"b":[null]}');
  });
});

describe('linkEvents and checkStreamLinks', () => {
  it('links a new stream from null, later appends to the stream’s last event, and the chain checks', () => {
    const events = linkedStream('s-1', 5);
    expect(events[0].metadata[PREVIOUS_EVENT_HASH]).toBeNull();
    expect(events[1].metadata[PREVIOUS_EVENT_HASH]).toBe(eventHash(events[0]));
    expect(events[2].metadata[PREVIOUS_EVENT_HASH]).toBe(eventHash(events[1]));
    expect(checkStreamLinks('s-1', events)).toEqual({ checked: 5, unlinked: 0 });
  });

  it('finds a rewritten event at the link after it', () => {
    const events = linkedStream('s-2', 5);
    events[2] = { ...events[2], data: { ...events[2].data, n: 99 } };
    expect(checkStreamLinks('s-2', events).firstBreak).toMatchObject({ revision: 3, kind: 'link_mismatch' });
  });

  it('finds rewritten metadata, a swap of two events and a removed event', () => {
    const actorChanged = linkedStream('s-3', 4);
    actorChanged[1] = { ...actorChanged[1], metadata: { ...actorChanged[1].metadata, actor: { role: 'support', tokenId: 'x' } } };
    expect(checkStreamLinks('s-3', actorChanged).firstBreak).toMatchObject({ revision: 2, kind: 'link_mismatch' });

    const swapped = linkedStream('s-3', 4);
    const [one, two] = [swapped[1], swapped[2]];
    swapped[1] = { ...two, revision: 1 };
    swapped[2] = { ...one, revision: 2 };
    expect(checkStreamLinks('s-3', swapped).firstBreak).toMatchObject({ revision: 1, kind: 'link_mismatch' });

    const gap = linkedStream('s-3', 4).filter((e) => e.revision !== 1);
    expect(checkStreamLinks('s-3', gap).firstBreak).toMatchObject({ revision: 1, kind: 'missing' });
  });

  it('accepts events from before links at the start of a stream, and refuses a link removed later', () => {
    const legacy = recorded('s-4', [toAppend(0), toAppend(1)]);
    const linked = recorded('s-4', linkEvents('s-4', { revision: 1, event: legacy[1] }, [toAppend(2), toAppend(3)]), 2);
    expect(checkStreamLinks('s-4', [...legacy, ...linked])).toEqual({ checked: 4, unlinked: 2 });

    const { [PREVIOUS_EVENT_HASH]: _removed, ...stripped } = linked[1].metadata;
    const broken = [...legacy, linked[0], { ...linked[1], metadata: stripped as RecordedEvent['metadata'] }];
    expect(checkStreamLinks('s-4', broken).firstBreak).toMatchObject({ revision: 3, kind: 'unlinked' });
  });

  it('hashes where an event sits: the same event at another revision or in another stream hashes differently', () => {
    const [event] = recorded('s-5', [toAppend(0)]);
    expect(eventHash(event)).not.toBe(eventHash({ ...event, revision: 1 }));
    expect(eventHash(event)).not.toBe(eventHash({ ...event, stream: 's-6' }));
    expect(eventHash(event)).toBe(eventHash({ ...event, id: event.id.toUpperCase(), created: new Date(0) } as RecordedEvent));
  });
});
