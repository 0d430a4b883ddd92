/**
 * `npm run bench:rebuild` — a blue/green rebuild of every read model from 1,000,000 events (a mix of
 * order, contact and import streams), against its ceiling, PostgreSQL's own `COPY` of the same rows
 * into an unindexed table; then the live lag of the worker's runners at 1,000 appends/s.
 *
 * Fairness (DESIGN.md §10): one embedded PostgreSQL with default durability; the rebuild, the COPY,
 * the writer and the runner each in their own child process; rounds interleaved (rebuild, copy,
 * rebuild, copy, …); medians and min/max reported.
 *
 * Environment (defaults in brackets): BENCH_EVENTS [1000000], BENCH_RUNS [3], BENCH_LIVE_RATE [1000]
 * appends/s, BENCH_LIVE_WARMUP_S [5], BENCH_LIVE_DURATION_S [15], BENCH_LIVE_SHARED [1] (0: each
 * projection on its own subscription, the comparison for the shared live read), BENCH_LIVE_TOGETHER [1] (0: one
 * transaction per projection and batch on the shared read), BENCH_LIVE_LANES [1] (0: every projection on one
 * shared read, as before payments had a projection lane of their own), BENCH_DATABASE_URL (a local
 * server's admin URL instead of starting one; COPY uses a server-side file, so it must be local).
 *
 * Progress goes to stderr; stdout gets a summary and, as its last line, one JSON object.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Pool } from 'pg';
import { runReadModelMigrations } from '../../src/database/data-source';
import { encodeCheckpoint } from '../../src/event-store/checkpoint';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres.event-store';
import { installJobQueue } from '../../src/jobs/install-job-queue';
import { REACTORS } from '../../test/harness/projection-catalogue';
import { runChild } from '../lib/child';
import { progress } from '../lib/log';
import { describeMachine, machineInfo, postgresInfo } from '../lib/machine';
import { startBenchServer } from '../lib/postgres';
import { formatRate, round, spread } from '../lib/stats';
import type { CopyInput, CopyResult } from './copy.child';
import type { LiveRunnerInput, LiveRunnerResult } from './live-runner.child';
import type { WriterInput } from './live-writer.child';
import type { RebuildInput, RebuildResult } from './rebuild.child';
import type { SeedInput } from './seed.child';
import { numberFromEnv } from '../lib/env';

const TARGETS = { rebuild_events_per_s: 30_000, peak_rss_mb: 300, live_lag_p99_ms: 200 };

const child = <I, R>(script: string, input: I) => runChild<I, R>(resolve(__dirname, script), input, { timeoutMs: 1_800_000 });

async function prepare(url: string, events: number): Promise<void> {
  const pool = new Pool({ connectionString: url, max: 2 });
  try {
    await new PostgresEventStore(pool).migrate();
    await runReadModelMigrations(url);
    await installJobQueue(pool);
    progress(`seeding ${events.toLocaleString('en-US')} events (two writers, bulk INSERT, 10,000 per transaction)`);
    const half = Math.floor(events / 2);
    const seeded = await Promise.all([
      child<SeedInput, { seconds: number }>('seed.child.ts', { url, events: half, seed: 1 }),
      child<SeedInput, { seconds: number }>('seed.child.ts', { url, events: events - half, seed: 2 }),
    ]);
    progress(`  seeded in ${Math.max(...seeded.map((s) => s.seconds)).toFixed(1)} s; ANALYZE`);
    await pool.query('ANALYZE idem_events');
  } finally {
    await pool.end();
  }
}

/** The reactor has never run here; start it at the head so the live run measures lag, not a backlog. */
async function startReactorsAtHead(url: string): Promise<void> {
  const pool = new Pool({ connectionString: url, max: 1 });
  try {
    const { rows } = await pool.query(
      `SELECT transaction_id::text AS t, sequence::text AS s FROM idem_events ORDER BY transaction_id DESC, sequence DESC LIMIT 1`,
    );
    for (const reactor of REACTORS) {
      await pool.query(
        `INSERT INTO projection_checkpoints (name, version, kind, state, checkpoint) VALUES ($1, 1, 'reactor', 'live', $2)
         ON CONFLICT (name, version) DO UPDATE SET checkpoint = EXCLUDED.checkpoint`,
        [reactor.name, encodeCheckpoint(rows[0].t, rows[0].s)],
      );
    }
  } finally {
    await pool.end();
  }
}

async function liveLag(url: string, rate: number, warmupS: number, durationS: number) {
  const startAt = Date.now() + 3000; // both children loaded and connected
  const measureFrom = startAt + warmupS * 1000;
  const measureUntil = measureFrom + durationS * 1000;
  const [lags, writer] = await Promise.all([
    child<LiveRunnerInput, LiveRunnerResult>('live-runner.child.ts', {
      url,
      measureFrom,
      measureUntil,
      stopAt: measureUntil + 3000,
      sharedRead: numberFromEnv('BENCH_LIVE_SHARED', 1) > 0,
      commitTogether: numberFromEnv('BENCH_LIVE_TOGETHER', 1) > 0,
      lanes: numberFromEnv('BENCH_LIVE_LANES', 1) > 0,
    }),
    child<WriterInput, { appended: number; appendsPerSecond: number }>('live-writer.child.ts', {
      url,
      appendsPerSecond: rate,
      startAt,
      stopAt: measureUntil,
    }),
  ]);
  return { lags, writer };
}

async function main(): Promise<void> {
  const config = {
    events: numberFromEnv('BENCH_EVENTS', 1_000_000, 1000),
    runs: numberFromEnv('BENCH_RUNS', 3, 1),
    liveRate: numberFromEnv('BENCH_LIVE_RATE', 1000, 0),
    liveWarmupS: numberFromEnv('BENCH_LIVE_WARMUP_S', 5, 0),
    liveDurationS: numberFromEnv('BENCH_LIVE_DURATION_S', 15, 1),
  };
  progress(`config ${JSON.stringify(config)}`);
  const server = await startBenchServer();
  const copyDir = mkdtempSync(join(tmpdir(), 'idem-bench-copy-'));
  chmodSync(copyDir, 0o777); // the server process writes and reads the COPY file here
  try {
    progress(`database server: ${server.description}`);
    const machine = machineInfo();
    const postgres = await postgresInfo(server.urlFor('postgres'));
    const url = await server.freshDatabase('bench_rebuild');
    await prepare(url, config.events);

    const rebuilds: RebuildResult[] = [];
    const copies: CopyResult[] = [];
    for (let run = 1; run <= config.runs; run++) {
      progress(`run ${run}/${config.runs}: rebuild of every read model`);
      const rebuild = await child<RebuildInput, RebuildResult>('rebuild.child.ts', { url, run, postmasterPid: server.postmasterPid });
      rebuilds.push(rebuild);
      progress(
        `  ${formatRate(rebuild.eventsPerSecond)} events/s (${rebuild.seconds.toFixed(1)} s, peak RSS ${Math.round(rebuild.peakRssMb)} MB, client CPU ${rebuild.clientCpuSeconds.toFixed(1)} s${rebuild.serverCpuSeconds !== undefined ? `, server CPU ${rebuild.serverCpuSeconds.toFixed(1)} s` : ''})`,
      );
      progress(`run ${run}/${config.runs}: COPY of the same rows into an unindexed table`);
      const copy = await child<CopyInput, CopyResult>('copy.child.ts', { url, file: join(copyDir, 'history.copy'), run });
      copies.push(copy);
      progress(`  ${formatRate(copy.rowsPerSecond)} rows/s (${copy.seconds.toFixed(1)} s)`);
    }

    let live: Awaited<ReturnType<typeof liveLag>> | undefined;
    if (config.liveRate > 0) {
      await startReactorsAtHead(url);
      progress(
        `live: ${config.liveRate} appends/s for ${config.liveWarmupS + config.liveDurationS} s, lag measured over the last ${config.liveDurationS} s`,
      );
      live = await liveLag(url, config.liveRate, config.liveWarmupS, config.liveDurationS);
    }
    report(config, describeMachine(machineInfo(), postgres), machine.loadAverage, rebuilds, copies, live);
  } finally {
    rmSync(copyDir, { recursive: true, force: true });
    await server.stop();
  }
}

function report(
  config: { events: number; runs: number; liveRate: number },
  machine: string,
  loadBefore: number[],
  rebuilds: RebuildResult[],
  copies: CopyResult[],
  live: Awaited<ReturnType<typeof liveLag>> | undefined,
): void {
  const rebuild = spread(rebuilds.map((r) => r.eventsPerSecond));
  const copy = spread(copies.map((c) => c.rowsPerSecond));
  const peakRss = Math.max(...rebuilds.map((r) => r.peakRssMb));
  const worst = live ? Object.entries(live.lags).sort((a, b) => b[1].p99Ms - a[1].p99Ms)[0] : undefined;
  const lines = [
    machine,
    `load average when the benchmark started: ${loadBefore.join(' ')}`,
    `history: ${config.events.toLocaleString('en-US')} events; ${config.runs} run(s) each`,
    `rebuild (all read models): median ${formatRate(rebuild.median)} events/s (min ${formatRate(rebuild.min)}, max ${formatRate(rebuild.max)}), peak RSS ${Math.round(peakRss)} MB`,
    `COPY ceiling:              median ${formatRate(copy.median)} rows/s (min ${formatRate(copy.min)}, max ${formatRate(copy.max)})`,
    `rebuild / COPY: ${(rebuild.median / copy.median).toFixed(3)}`,
  ];
  if (live) {
    lines.push(`live at ${formatRate(live.writer.appendsPerSecond)} appends/s: lag per projection (store commit → projection commit):`);
    for (const [name, f] of Object.entries(live.lags))
      lines.push(`  ${name.padEnd(22)} ${String(f.events).padStart(6)} events  p50 ${f.p50Ms} ms  p99 ${f.p99Ms} ms  max ${f.maxMs} ms`);
  }
  lines.push(`targets: ${JSON.stringify(TARGETS)}`);
  process.stdout.write(`${lines.join('\n')}\n`);
  const summary = {
    rebuild_events_per_s: round(rebuild.median),
    copy_rows_per_s: round(copy.median),
    ratio_vs_copy: round(rebuild.median / copy.median, 3),
    peak_rss_mb: round(peakRss),
    live_lag_p99_ms: worst ? worst[1].p99Ms : null,
    live_lag_p99_projection: worst ? worst[0] : null,
    live_appends_per_s: live ? round(live.writer.appendsPerSecond) : null,
    rebuild_spread: round(rebuild.relativeSpread, 3),
    events: config.events,
    runs: config.runs,
  };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}

main().catch((error) => {
  process.stderr.write(`bench:rebuild failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
