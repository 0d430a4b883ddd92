import { WrittenKeys } from './written-keys';

describe('WrittenKeys', () => {
  it('says "maybe" for every key it was given, however many', () => {
    const written = new WrittenKeys();
    const keys = Array.from({ length: 300_000 }, (_, i) => `order-${i}-${(i * 7919) % 1000}`);
    for (const key of keys) written.add(key);
    expect(keys.filter((key) => !written.mayContain(key))).toEqual([]);
  });

  it('says "never" for almost every key it was not given', () => {
    const written = new WrittenKeys();
    for (let i = 0; i < 250_000; i++) written.add(`written-${i}`);
    let falsePositives = 0;
    for (let i = 0; i < 100_000; i++) if (written.mayContain(`other-${i}`)) falsePositives++;
    expect(falsePositives).toBeLessThan(100);
  });

  it('knows nothing when new', () => {
    expect(new WrittenKeys().mayContain('')).toBe(false);
    expect(new WrittenKeys().mayContain('["a","b"]')).toBe(false);
  });
});
