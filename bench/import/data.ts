/**
 * The generated workload, the same for every contender: N contacts at version 1, 20 % of them again
 * at version 2 (updates), 10 % re-sent at version 1 (stale when they arrive after their update),
 * 5 % re-sent exactly (duplicates), in one seeded shuffle. Each record carries an event id.
 */
export interface BenchRecord {
  sourceId: string;
  version: number;
  eventId: string;
  fields: Record<string, unknown>;
}

function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const record = (i: number, version: number): BenchRecord => ({
  sourceId: `b${i}`,
  version,
  eventId: `b${i}-v${version}`,
  fields: { name: `Contact ${i}`, email: `b${i}.v${version}@bench.example`, version },
});

export function generate(contacts: number, seed = 14): { records: BenchRecord[]; freshest: Map<string, number> } {
  const random = mulberry32(seed);
  const records: BenchRecord[] = [];
  const freshest = new Map<string, number>();
  for (let i = 0; i < contacts; i++) {
    records.push(record(i, 1));
    freshest.set(`b${i}`, 1);
  }
  for (let i = 0; i < contacts * 0.2; i++) {
    const c = Math.floor(random() * contacts);
    records.push(record(c, 2));
    freshest.set(`b${c}`, 2);
  }
  for (let i = 0; i < contacts * 0.1; i++) records.push(record(Math.floor(random() * contacts), 1));
  for (let i = 0; i < contacts * 0.05; i++) records.push({ ...records[Math.floor(random() * contacts)] });
  for (let i = records.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [records[i], records[j]] = [records[j], records[i]];
  }
  return { records, freshest };
}
