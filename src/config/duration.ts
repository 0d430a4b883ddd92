const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `250ms`, `30s`, `15m`, `2h`, `30d` → milliseconds. */
export function parseDuration(raw: string): number {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(raw.trim());
  if (!match) throw new Error(`must be a duration like 30s, 15m, 2h or 30d, got "${raw}"`);
  return Number(match[1]) * UNITS[match[2]];
}

/** Milliseconds → the duration as it would be set, in its largest exact unit: 900000 → `15m`, 1500 → `1500ms`. */
export function formatDuration(ms: number): string {
  const [unit, size] = Object.entries(UNITS)
    .reverse()
    .find(([, size]) => ms % size === 0 && ms >= size) ?? ['ms', 1];
  return `${ms / size}${unit}`;
}
