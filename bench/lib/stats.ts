/** Small, dependency-free statistics for benchmark rounds. */

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Nearest-rank percentile, p in [0, 100]. */
export function percentile(values: ArrayLike<number>, p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Array.from(values).sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export interface Spread {
  median: number;
  min: number;
  max: number;
  /** (max - min) / median, as a fraction: how noisy the rounds were. */
  relativeSpread: number;
  runs: number[];
}

export function spread(values: number[]): Spread {
  const m = median(values);
  const min = Math.min(...values);
  const max = Math.max(...values);
  return { median: m, min, max, relativeSpread: m ? (max - min) / m : Number.NaN, runs: values };
}

/** Rounds to `digits` significant decimals (for printing and JSON). */
export function round(value: number, digits = 0): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export function formatRate(perSecond: number): string {
  return Math.round(perSecond).toLocaleString('en-US');
}
