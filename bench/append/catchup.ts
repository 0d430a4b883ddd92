/**
 * Catch-up read throughput, in its own process: a subscriber starts from the beginning of history
 * (`subscribeToAll()` without a checkpoint) and the clock runs until the last pre-written event has
 * been handed to it. run.ts seeds the events first (seedCatchUp).
 */
import { Pool } from 'pg';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres.event-store';
import { childMain } from '../lib/child';

export interface CatchUpInput {
  url: string;
  events: number;
  run: number;
  maxBatchSize?: number;
}

export interface CatchUpResult {
  run: number;
  events: number;
  batches: number;
  seconds: number;
  eventsPerSecond: number;
  clientCpuSeconds: number;
}

childMain<CatchUpInput, CatchUpResult>(async (input) => {
  const pool = new Pool({ connectionString: input.url, max: 2 });
  const store = new PostgresEventStore(pool);
  try {
    await pool.query('SELECT 1'); // connect before the clock starts
    const cpuBefore = process.cpuUsage();
    const started = process.hrtime.bigint();
    const subscription = store.subscribeToAll(input.maxBatchSize ? { maxBatchSize: input.maxBatchSize } : {});
    let events = 0;
    let batches = 0;
    let lastRevision = -1;
    for await (const batch of subscription) {
      batches += 1;
      events += batch.events.length;
      // Touch every event the way a projector would (and keep the work from being optimised away).
      for (const event of batch.events) lastRevision = event.revision;
      if (events >= input.events) break;
      if (batch.caughtUp) throw new Error(`caught up after ${events} of ${input.events} events`);
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const cpu = process.cpuUsage(cpuBefore);
    await subscription.close();
    if (events !== input.events) throw new Error(`read ${events} events, expected ${input.events}`);
    if (lastRevision < 0) throw new Error('no events read');
    return { run: input.run, events, batches, seconds, eventsPerSecond: events / seconds, clientCpuSeconds: (cpu.user + cpu.system) / 1e6 };
  } finally {
    await store.close();
    await pool.end();
  }
});
