import type { Checkpoint, RecordedEvent } from '../../src/event-store/event-store.port';
import { auditChainProjector, chainBatch, streamsLinkedBefore } from './audit-chain.projector';
import { chainHash, eventHash, GENESIS_HASH, nextDigest } from './chain-hash';
import { EMPTY_CHAIN } from './chain-replay';

let sequence = 0;
function recorded(stream: string, revision: number): RecordedEvent {
  sequence += 1;
  return {
    id: `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
    stream,
    revision,
    position: `1/${sequence}` as Checkpoint,
    type: 'Happened',
    data: { n: sequence },
    metadata: { correlationId: 'c', causationId: 'c', actor: { role: 'test', tokenId: 't' }, recordedAt: '2026-12-01T00:00:00.000Z' },
    created: new Date(0),
  };
}

describe('the audit_chain projector (chainBatch)', () => {
  describe('on an empty chain', () => {
    const events = [recorded('order-a', 0), recorded('order-b', 0), recorded('order-a', 1)];
    const batch = chainBatch(EMPTY_CHAIN, new Map(), events, 1000);

    it('numbers the events in the global order and links each to the previous event of its own stream', () => {
      const [a0, b0, a1] = events.map(eventHash);
      expect(batch.entries).toEqual([
        expect.objectContaining({ eventNumber: 1, stream: 'order-a', revision: 0, eventHash: a0, chainHash: chainHash(GENESIS_HASH, a0) }),
        expect.objectContaining({ eventNumber: 2, stream: 'order-b', revision: 0, eventHash: b0, chainHash: chainHash(GENESIS_HASH, b0) }),
        expect.objectContaining({ eventNumber: 3, stream: 'order-a', revision: 1, chainHash: chainHash(chainHash(GENESIS_HASH, a0), a1) }),
      ]);
      expect(batch.entries.map((entry) => entry.eventId)).toEqual(events.map((event) => event.id));
      expect(batch.entries.map((entry) => entry.position)).toEqual(events.map((event) => event.position));
    });

    it('moves the head to the last event with the running digest over the chain hashes', () => {
      const digest = batch.entries.reduce((running, entry) => nextDigest(running, entry.chainHash), GENESIS_HASH);
      expect(batch.head).toEqual({ eventsChained: 3, digest, position: events[2].position });
    });

    it('writes no seal before the interval is reached', () => {
      expect(batch.seals).toEqual([]);
    });
  });

  describe('going on from a stored head', () => {
    it('links a stream to its last stored chain hash and counts on from the head', () => {
      const first = chainBatch(EMPTY_CHAIN, new Map(), [recorded('order-c', 0)], 1000);
      const next = recorded('order-c', 1);
      const second = chainBatch(first.head, new Map([['order-c', first.entries[0].chainHash]]), [next], 1000);

      expect(second.entries[0]).toMatchObject({ eventNumber: 2, chainHash: chainHash(first.entries[0].chainHash, eventHash(next)) });
      expect(second.head.digest).toBe(nextDigest(first.head.digest, second.entries[0].chainHash));
    });
  });

  describe('with a seal every 2 events', () => {
    it('seals after events 2 and 4 with the digest of everything up to them, wherever batches end', () => {
      const events = [recorded('s-1', 0), recorded('s-1', 1), recorded('s-2', 0), recorded('s-1', 2), recorded('s-2', 1)];
      const first = chainBatch(EMPTY_CHAIN, new Map(), events.slice(0, 3), 2);
      const lastHashes = new Map([
        ['s-1', first.entries[1].chainHash],
        ['s-2', first.entries[2].chainHash],
      ]);
      const second = chainBatch(first.head, lastHashes, events.slice(3), 2);
      const whole = chainBatch(EMPTY_CHAIN, new Map(), events, 2);

      const digestAfter = (n: number) =>
        whole.entries.slice(0, n).reduce((running, entry) => nextDigest(running, entry.chainHash), GENESIS_HASH);
      expect([...first.seals, ...second.seals]).toEqual([
        { eventsSealed: 2, position: events[1].position, digest: digestAfter(2) },
        { eventsSealed: 4, position: events[3].position, digest: digestAfter(4) },
      ]);
      expect(whole.seals).toEqual([...first.seals, ...second.seals]);
      expect([...first.entries, ...second.entries]).toEqual(whole.entries);
    });
  });
});

describe('streamsLinkedBefore', () => {
  it('names each stream whose first event in the batch follows an earlier one, once, and no stream that starts here', () => {
    const events = [
      recorded('new-1', 0),
      recorded('old-1', 4),
      recorded('new-1', 1),
      recorded('old-1', 5),
      recorded('old-2', 1),
      recorded('new-2', 0),
    ];
    expect(streamsLinkedBefore(events)).toEqual(['old-1', 'old-2']);
  });
});

describe('auditChainProjector', () => {
  it.each([1, 0, 2.5])(
    'refuses sealEvery %p: each seal is published as an event, so a seal after every event would never end',
    (sealEvery) => {
      expect(() => auditChainProjector({ sealEvery })).toThrow(/sealEvery must be an integer of at least 2/);
    },
  );

  it('accepts a seal every 2 events', () => {
    expect(auditChainProjector({ sealEvery: 2 }).name).toBe('audit_chain');
  });
});
