/**
 * Records the text of every statement a pg Pool's clients run, so a test can count round trips
 * (grouped reads and appends). Appends check their connection out, reads use pool.query: both go
 * through a client acquired from the pool, which is where the counting is installed.
 */
import type { Pool } from 'pg';

export function countStatements(pool: Pool): { statements: string[]; reset(): void } {
  const counter = { statements: [] as string[], reset: () => (counter.statements.length = 0) };
  pool.on('acquire', (client) => {
    const counted = client as typeof client & { counted?: boolean };
    if (counted.counted) return;
    counted.counted = true;
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((config: unknown, ...rest: unknown[]) => {
      counter.statements.push(typeof config === 'string' ? config : (config as { text: string }).text);
      return query(config, ...rest);
    }) as typeof client.query;
  });
  return counter;
}
