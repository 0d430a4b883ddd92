/**
 * A development loop for the rebuild's CPU cost, not a benchmark: keeps one embedded PostgreSQL with
 * a seeded history in BENCH_DEV_DIR [/tmp/idem-rebuild-dev] between runs (seeding takes longer than
 * a rebuild), rebuilds every read model BENCH_RUNS [1] times and prints CPU microseconds per event,
 * client and server, which unlike wall time hardly move when the machine is shared.
 *
 *   BENCH_EVENTS=200000 node -r ./bench/lib/register.js bench/rebuild/cpu-per-event.ts
 *   BENCH_CPU_PROF=/tmp/prof …   also writes a V8 CPU profile of each rebuild child there
 *   BENCH_BATCH=20000 …          another rebuild batch size than the CLI's
 *   BENCH_DEV_URL=postgres://…/postgres …   use a server already running on BENCH_DEV_DIR's cluster
 */
import { resolve } from 'node:path';
import { Pool } from 'pg';
import { runReadModelMigrations } from '../../src/database/data-source';
import { startEmbeddedPostgres } from '../../src/database/embedded-postgres';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres.event-store';
import { installJobQueue } from '../../src/jobs/install-job-queue';
import { runChild } from '../lib/child';
import { numberFromEnv } from '../lib/env';
import { progress } from '../lib/log';
import { postmasterPid } from '../lib/proc';
import type { RebuildInput, RebuildResult } from './rebuild.child';
import type { SeedInput } from './seed.child';

async function main(): Promise<void> {
  const events = numberFromEnv('BENCH_EVENTS', 200_000, 1000);
  const runs = numberFromEnv('BENCH_RUNS', 1, 1);
  const dataDir = process.env.BENCH_DEV_DIR ?? '/tmp/idem-rebuild-dev';
  // BENCH_DEV_URL: a server already running on BENCH_DEV_DIR's cluster (its admin database URL).
  const running = process.env.BENCH_DEV_URL;
  const cluster = running ? undefined : await startEmbeddedPostgres({ dataDir, persistent: true });
  const urlFor = (database: string) =>
    cluster ? cluster.urlFor(database) : Object.assign(new URL(running!), { pathname: `/${database}` }).toString();
  try {
    const database = `rebuild_${events}`;
    const admin = new Pool({ connectionString: urlFor('postgres'), max: 1 });
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    const url = urlFor(database);
    await seedOnce(url, events);
    const pid = postmasterPid(resolve(dataDir, 'pg'));
    const profile = process.env.BENCH_CPU_PROF;
    if (profile) process.execArgv.push('--cpu-prof', `--cpu-prof-dir=${profile}`);
    for (let run = 1; run <= runs; run++) {
      const r = await runChild<RebuildInput, RebuildResult>(resolve(__dirname, 'rebuild.child.ts'), {
        url,
        run,
        postmasterPid: pid,
        maxBatchSize: process.env.BENCH_BATCH ? Number(process.env.BENCH_BATCH) : undefined,
      });
      const us = (seconds: number | undefined) => (seconds === undefined ? '?' : ((seconds * 1e6) / r.events).toFixed(1));
      process.stdout.write(
        `${JSON.stringify({ run, events: r.events, eventsPerSecond: Math.round(r.eventsPerSecond), clientUsPerEvent: us(r.clientCpuSeconds), serverUsPerEvent: us(r.serverCpuSeconds), peakRssMb: Math.round(r.peakRssMb) })}\n`,
      );
    }
  } finally {
    await cluster?.stop();
  }
}

async function seedOnce(url: string, events: number): Promise<void> {
  const pool = new Pool({ connectionString: url, max: 2 }); // migrate holds a lock on one connection
  try {
    await new PostgresEventStore(pool).migrate();
    await runReadModelMigrations(url);
    await installJobQueue(pool);
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM idem_events');
    if (rows[0].n >= events) return;
    progress(`seeding ${events} events`);
    const half = Math.floor(events / 2);
    const child = (input: SeedInput) => runChild<SeedInput, unknown>(resolve(__dirname, 'seed.child.ts'), input);
    await Promise.all([child({ url, events: half, seed: 1 }), child({ url, events: events - half, seed: 2 })]);
    await pool.query('VACUUM ANALYZE idem_events');
  } finally {
    await pool.end();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
