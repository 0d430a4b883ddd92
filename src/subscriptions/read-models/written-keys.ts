/**
 * The keys a rebuild has written to a table it started empty, as a Bloom filter: "never written"
 * is certain (the row cannot be in the table: skip the lookup, COPY it in), "maybe written" is
 * checked against the table as before. A fixed 2 MiB of bits per table instead of a set of key
 * strings: no per-key objects for the garbage collector to trace (a row cache tried earlier cost
 * more in GC than the lookups it saved). With 250,000 keys one lookup in ~100,000 is needless; with
 * millions the filter degrades to more lookups, never to a wrong answer.
 */
const BITS = 1 << 24;
const HASHES = 4;

export class WrittenKeys {
  private readonly bits = new Int32Array(BITS >>> 5);

  add(key: string): void {
    this.probe(key, true);
  }

  /** False only for keys never added. */
  mayContain(key: string): boolean {
    return this.probe(key, false);
  }

  /** Whether every bit of `key` was already set; with `set`, sets the missing ones. */
  private probe(key: string, set: boolean): boolean {
    const hashes = hashPair(key);
    let h1 = hashes[0];
    const h2 = hashes[1];
    let all = true;
    for (let i = 0; i < HASHES; i++, h1 = (h1 + h2) | 0) {
      const bit = h1 & (BITS - 1);
      const mask = 1 << (bit & 31);
      if ((this.bits[bit >>> 5] & mask) !== 0) continue;
      if (!set) return false;
      all = false;
      this.bits[bit >>> 5] |= mask;
    }
    return all;
  }
}

const pair: [number, number] = [0, 0];

/**
 * Held here, not looked up on `Math` per character: under jest every module runs in a vm context, where a
 * global's lookup in a hot loop is an interceptor call, which made the spec of this file take 9 s instead
 * of half a second. In the service it is the same code at the same speed.
 */
const imul = Math.imul;

/** Two independent 32-bit hashes (FNV-1a and a multiplicative one) for double hashing. */
function hashPair(key: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = imul(a ^ c, 0x01000193);
    b = imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  pair[0] = a;
  pair[1] = b | 1; // odd: the probe sequence visits distinct bits
  return pair;
}
