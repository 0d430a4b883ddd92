/**
 * The contender: `rebuildReadModels` of every read model from the start of history (what
 * `idem projections rebuild all` runs), in its own process; then the retired version is dropped so
 * the next round starts from the same database size.
 */
import { Pool } from 'pg';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres.event-store';
import { rebuildReadModels } from '../../src/subscriptions/read-models/rebuild';
import { dropOldVersions, installReadModels } from '../../src/subscriptions/read-models/versions';
import { READ_MODELS } from '../../test/harness/projection-catalogue';
import { childMain } from '../lib/child';
import { serverCpuSeconds } from '../lib/proc';

export interface RebuildInput {
  url: string;
  run: number;
  postmasterPid?: number;
  /** Events per transaction when not the CLI's default (experiments). */
  maxBatchSize?: number;
}

export interface RebuildResult {
  run: number;
  events: number;
  seconds: number;
  eventsPerSecond: number;
  peakRssMb: number;
  clientCpuSeconds: number;
  serverCpuSeconds?: number;
  version: number;
}

childMain<RebuildInput, RebuildResult>(async (input) => {
  const pool = new Pool({ connectionString: input.url, max: 12 });
  const store = new PostgresEventStore(pool);
  try {
    await installReadModels(pool, READ_MODELS);
    const cpuBefore = process.cpuUsage();
    const serverBefore = serverCpuSeconds(input.postmasterPid);
    const started = process.hrtime.bigint();
    let events = 0;
    const results = await rebuildReadModels({
      store,
      pool,
      models: READ_MODELS,
      maxBatchSize: input.maxBatchSize,
      onProgress: (p) => (events = p.eventsRead),
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const cpu = process.cpuUsage(cpuBefore);
    const serverAfter = serverCpuSeconds(input.postmasterPid);
    for (const model of READ_MODELS) await dropOldVersions(pool, model);
    return {
      run: input.run,
      events,
      seconds,
      eventsPerSecond: events / seconds,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      clientCpuSeconds: (cpu.user + cpu.system) / 1e6,
      serverCpuSeconds: serverBefore !== undefined && serverAfter !== undefined ? serverAfter - serverBefore : undefined,
      version: results[0].to,
    };
  } finally {
    await store.close();
    await pool.end();
  }
});
