/** The api side of the live-lag run: appends through the event-store port at a fixed rate. */
import { Pool } from 'pg';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres.event-store';
import { LiveWriter } from '../../test/projections/live-writer';
import { childMain } from '../lib/child';

export interface WriterInput {
  url: string;
  appendsPerSecond: number;
  /** Epoch ms to start and stop appending. */
  startAt: number;
  stopAt: number;
}

childMain<WriterInput, { appended: number; appendsPerSecond: number }>(async (input) => {
  const pool = new Pool({ connectionString: input.url, max: 32 });
  const store = new PostgresEventStore(pool);
  try {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, input.startAt - Date.now())));
    // Enough concurrent requests that commit latency (fsync on) does not cap the rate.
    const writer = new LiveWriter(store, 99, { concurrency: 32, openStreams: 256, appendsPerSecond: input.appendsPerSecond });
    writer.start();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, input.stopAt - Date.now())));
    const appended = await writer.stop();
    return { appended, appendsPerSecond: appended / ((Date.now() - input.startAt) / 1000) };
  } finally {
    await store.close();
    await pool.end();
  }
});
