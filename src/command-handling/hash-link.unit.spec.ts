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

  it('escapes strings and orders keys exactly as JSON.stringify and UTF-16 code units do', () => {
    const value = { é: 1, e: 2, Z: [1.5, { b: 'line\nbreak \u2028 \ud800 \u0000 "q" \\', a: -0 }], '😀': true, '\ud800k': 1, 'a\u0001': 2 };
    expect(canonicalJson(value)).toBe(
      '{"Z":[1.5,{"a":0,"b":"line\\nbreak \u2028 \\ud800 \\u0000 \\"q\\" \\\\"}],"a\\u0001":2,"e":2,"é":1,"\\ud800k":1,"😀":true}',
    );
    expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
  });

  it('refuses a cycle instead of hashing a placeholder', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(TypeError);
  });
});

describe('eventHash', () => {
  it('is the hash every stored link was written with (a known answer: a change here breaks the links of existing events)', () => {
    const event = {
      stream: 'contact-crm.ü-1',
      revision: 7,
      id: 'AB3C7E52-1F7A-4C58-9C0E-5D1A2B3C4D5E',
      type: 'ContactImported',
      data: { é: 1, e: 2, Z: [1.5, null, { b: 'line\nbreak \u2028', a: -0 }], '😀': true, emptyObj: {}, big: 12345678901234567000 },
      metadata: { previousEventHash: null, actor: { role: 'sync' } },
    };
    // Computed with the hand-written canonical JSON the links were first written with (before safe-stable-stringify).
    expect(eventHash(event)).toBe('d8d6abcbb823f2668e66d8723349c58bc60936d98a6bf19b8ab1684fea6de064');
    expect(eventHash({ ...event, id: event.id.toLowerCase() })).toBe(eventHash(event));
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
