/** Benchmark knobs from the environment (durations, rounds, sizes), validated so a typo fails loudly. */
export function numberFromEnv(name: string, fallback: number, min = 0): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a number ≥ ${min}, got "${raw}"`);
  return value;
}
