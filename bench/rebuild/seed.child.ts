/** Seeds one share of the benchmark history (its own streams), in its own process. */
import { Pool } from 'pg';
import { childMain } from '../lib/child';
import { seedHistory } from './seed-history';

export interface SeedInput {
  url: string;
  events: number;
  seed: number;
}

childMain<SeedInput, { events: number; seconds: number }>(async (input) => {
  const pool = new Pool({ connectionString: input.url, max: 1 });
  const started = Date.now();
  try {
    await seedHistory(pool, input.events, input.seed);
    return { events: input.events, seconds: (Date.now() - started) / 1000 };
  } finally {
    await pool.end();
  }
});
