import { createHash } from 'node:crypto';
import { canonicalJson, chainHash, eventHash, GENESIS_HASH, nextDigest } from './chain-hash';

const event = {
  stream: 'order-o1',
  revision: 0,
  id: '8a4c7f0e-2b1d-4c55-9e0a-3f6b8d2e1a90',
  type: 'ChargeRequested',
  data: { amount: 4200, currency: 'EUR', customerId: 'c1' },
  metadata: { correlationId: 'r1', causationId: 'r1', actor: { role: 'storefront', tokenId: 't' }, recordedAt: '2026-12-01T00:00:00.000Z' },
};

describe('canonicalJson', () => {
  it('sorts the keys of every object, at every depth, and leaves array order alone', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } })).toBe('{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}');
  });

  it('drops undefined properties as JSON does and writes undefined array items as null', () => {
    expect(canonicalJson({ a: undefined, b: [undefined, null] })).toBe('{"b":[null,null]}');
  });

  it('writes dates through toJSON', () => {
    expect(canonicalJson({ at: new Date('2026-12-01T00:00:00Z') })).toBe('{"at":"2026-12-01T00:00:00.000Z"}');
  });
});

describe('eventHash', () => {
  it('is the sha256 of the canonical JSON of stream, revision, id, type, data and metadata', () => {
    const expected = createHash('sha256').update(canonicalJson(event)).digest('hex');
    expect(eventHash(event)).toBe(expected);
  });

  it('does not depend on the order the keys were built in', () => {
    const reordered = { ...event, data: { customerId: 'c1', currency: 'EUR', amount: 4200 } };
    expect(eventHash(reordered)).toBe(eventHash(event));
  });

  it.each([
    ['the stream', { stream: 'order-o2' }],
    ['the revision', { revision: 1 }],
    ['the id', { id: '8a4c7f0e-2b1d-4c55-9e0a-3f6b8d2e1a91' }],
    ['the type', { type: 'ChargeFailed' }],
    ['the data', { data: { ...event.data, amount: 4300 } }],
    ['the metadata', { metadata: { ...event.metadata, correlationId: 'r2' } }],
  ])('changes with %s', (_, change) => {
    expect(eventHash({ ...event, ...change })).not.toBe(eventHash(event));
  });

  it('ignores fields outside the hashed ones, such as the store time', () => {
    expect(eventHash({ ...event, created: new Date() } as typeof event)).toBe(eventHash(event));
  });
});

describe('chainHash and nextDigest', () => {
  const a = eventHash(event);
  const b = eventHash({ ...event, revision: 1 });

  it('link a hash to its predecessor, so the same event after another predecessor links differently', () => {
    expect(chainHash(GENESIS_HASH, a)).toMatch(/^[0-9a-f]{64}$/);
    expect(chainHash(chainHash(GENESIS_HASH, b), a)).not.toBe(chainHash(GENESIS_HASH, a));
  });

  it('are different functions of the same input, so a chain hash never passes for a digest', () => {
    expect(chainHash(GENESIS_HASH, a)).not.toBe(nextDigest(GENESIS_HASH, a));
  });
});
