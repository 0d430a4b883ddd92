/**
 * `npm run bench:append` — single-event appends with an exact expected revision, 16 concurrent writers
 * on distinct short streams, for Idem's PostgresEventStore, Emmett 0.42's PostgreSQL store and a bare
 * single-row INSERT (the ceiling); then catch-up read throughput of Idem's subscribeToAll.
 *
 * Fairness (DESIGN.md §10): one embedded PostgreSQL with default durability for everything, each
 * contender in its own child process and database, warm-up then a fixed measuring window, rounds
 * interleaved (idem, emmett, raw, idem, emmett, raw, …), medians and min/max reported.
 *
 * Environment (defaults in brackets): BENCH_DURATION_S [15] measuring window per contender and round,
 * BENCH_WARMUP_S [5], BENCH_ROUNDS [5], BENCH_WRITERS [16], BENCH_EVENTS_PER_STREAM [10],
 * BENCH_CONTENDERS [idem,idem_per_commit,emmett,raw], BENCH_CATCHUP_EVENTS [200000] (0 skips), BENCH_CATCHUP_RUNS [3],
 * BENCH_DATABASE_URL (use that server instead of starting one).
 *
 * Progress goes to stderr; stdout gets a human summary and, as its last line, one JSON object.
 */
import { resolve } from 'node:path';
import { runChild } from '../lib/child';
import { progress } from '../lib/log';
import { describeMachine, machineInfo, postgresInfo } from '../lib/machine';
import { startBenchServer } from '../lib/postgres';
import { formatRate, median, round, spread, type Spread } from '../lib/stats';
import type { CatchUpInput, CatchUpResult } from './catchup';
import type { ContenderInput } from './contender';
import { seedCatchUp } from './seed';
import { eventSizes, type AppendResult } from './workload';
import { numberFromEnv } from '../lib/env';

type Contender = 'idem' | 'idem_per_commit' | 'emmett' | 'raw';
const ALL: Contender[] = ['idem', 'idem_per_commit', 'emmett', 'raw'];
const LABEL: Record<Contender, string> = {
  idem: 'Idem PostgresEventStore',
  idem_per_commit: 'Idem, a commit per append',
  emmett: 'Emmett 0.42 PostgreSQL',
  raw: 'raw INSERT (ceiling)',
};
const TARGETS = { ratio_vs_emmett: 1.5, ratio_vs_raw: 0.8, catchup_events_per_s: 50_000 };

function contendersFromEnv(): Contender[] {
  const raw = process.env.BENCH_CONTENDERS;
  if (!raw) return ALL;
  const chosen = raw.split(',').map((name) => name.trim());
  for (const name of chosen) if (!ALL.includes(name as Contender)) throw new Error(`BENCH_CONTENDERS: unknown contender "${name}"`);
  return ALL.filter((name) => chosen.includes(name));
}

async function main(): Promise<void> {
  const config = {
    durationS: numberFromEnv('BENCH_DURATION_S', 15, 0.5),
    warmupS: numberFromEnv('BENCH_WARMUP_S', 5, 0),
    rounds: numberFromEnv('BENCH_ROUNDS', 5, 1),
    writers: numberFromEnv('BENCH_WRITERS', 16, 1),
    eventsPerStream: numberFromEnv('BENCH_EVENTS_PER_STREAM', 10, 1),
    catchUpEvents: numberFromEnv('BENCH_CATCHUP_EVENTS', 200_000, 0),
    catchUpRuns: numberFromEnv('BENCH_CATCHUP_RUNS', 3, 1),
    contenders: contendersFromEnv(),
  };
  const sizes = eventSizes();
  progress(`config ${JSON.stringify(config)}; event data ${sizes.data} B JSON, metadata ${sizes.metadata} B JSON`);

  const server = await startBenchServer();
  const cleanup = async () => {
    await server.stop().catch((error) => progress(`stopping PostgreSQL failed: ${error}`));
  };
  process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));
  try {
    progress(`database server: ${server.description}`);
    const machine = machineInfo();
    const postgres = await postgresInfo(server.urlFor('postgres'));
    progress(describeMachine(machine, postgres).replace('\n', '; '));

    const urls = {} as Record<Contender, string>;
    for (const contender of config.contenders) urls[contender] = await server.freshDatabase(`bench_append_${contender}`);

    const results: Record<Contender, AppendResult[]> = { idem: [], idem_per_commit: [], emmett: [], raw: [] };
    for (let roundNo = 1; roundNo <= config.rounds; roundNo += 1) {
      for (const contender of config.contenders) {
        progress(`round ${roundNo}/${config.rounds}: ${LABEL[contender]} (warm-up ${config.warmupS}s, measure ${config.durationS}s)`);
        const input: ContenderInput = {
          contender,
          url: urls[contender],
          round: roundNo,
          writers: config.writers,
          eventsPerStream: config.eventsPerStream,
          warmupMs: config.warmupS * 1000,
          durationMs: config.durationS * 1000,
          postmasterPid: server.postmasterPid,
        };
        const result = await runChild<ContenderInput, AppendResult>(resolve(__dirname, 'contender.ts'), input, {
          timeoutMs: (config.warmupS + config.durationS) * 1000 + 120_000,
        });
        results[contender].push(result);
        progress(
          `  ${formatRate(result.appendsPerSecond)} appends/s (p50 ${result.latencyMs.p50.toFixed(2)} ms, p99 ${result.latencyMs.p99.toFixed(2)} ms, ` +
            `client CPU ${Math.round(result.clientCpuUsPerAppend)} µs/append` +
            (result.serverCpuUsPerAppend !== undefined ? `, server CPU ${Math.round(result.serverCpuUsPerAppend)} µs/append)` : ')'),
        );
      }
    }

    const catchUp: CatchUpResult[] = [];
    if (config.catchUpEvents > 0) {
      const url = await server.freshDatabase('bench_catchup');
      progress(`catch-up: writing ${config.catchUpEvents.toLocaleString('en-US')} events with bulk INSERT … SELECT`);
      await seedCatchUp(url, config.catchUpEvents, config.eventsPerStream);
      for (let run = 1; run <= config.catchUpRuns; run += 1) {
        progress(`catch-up run ${run}/${config.catchUpRuns}: subscribeToAll from the start`);
        const result = await runChild<CatchUpInput, CatchUpResult>(
          resolve(__dirname, 'catchup.ts'),
          { url, events: config.catchUpEvents, run },
          { timeoutMs: 600_000 },
        );
        catchUp.push(result);
        progress(
          `  ${formatRate(result.eventsPerSecond)} events/s (${result.seconds.toFixed(2)} s, ${result.batches} batches, client CPU ${result.clientCpuSeconds.toFixed(2)} s)`,
        );
      }
    }

    report(config, machine, postgres, results, catchUp, sizes);
  } finally {
    await cleanup();
  }
}

function report(
  config: {
    durationS: number;
    warmupS: number;
    rounds: number;
    writers: number;
    eventsPerStream: number;
    catchUpEvents: number;
    contenders: Contender[];
  },
  machine: ReturnType<typeof machineInfo>,
  postgres: Awaited<ReturnType<typeof postgresInfo>>,
  results: Record<Contender, AppendResult[]>,
  catchUp: CatchUpResult[],
  sizes: { data: number; metadata: number },
): void {
  const rates = {} as Partial<Record<Contender, Spread>>;
  for (const contender of config.contenders) rates[contender] = spread(results[contender].map((r) => r.appendsPerSecond));
  const med = (contender: Contender) => rates[contender]?.median;
  const ratio = (a?: number, b?: number) => (a !== undefined && b !== undefined && b > 0 ? a / b : undefined);
  // The same ratio within each round (both measured minutes apart under the same background load).
  const perRound = (other: Contender, of: Contender = 'idem') =>
    results[of]?.length && results[other]?.length ? results[of].map((r, i) => r.appendsPerSecond / results[other][i].appendsPerSecond) : [];
  const catchUpRates = catchUp.map((r) => r.eventsPerSecond);
  const catchUpSpread = catchUpRates.length ? spread(catchUpRates) : undefined;

  const lines: string[] = [];
  lines.push('');
  lines.push(
    `Appends: 1 event per append, exact expected revision, ${config.writers} writers, new stream every ${config.eventsPerStream} events,`,
  );
  lines.push(
    `event data ${sizes.data} B + metadata ${sizes.metadata} B JSON; ${config.rounds} interleaved rounds of ${config.warmupS}s warm-up + ${config.durationS}s measured.`,
  );
  lines.push(describeMachine(machine, postgres));
  lines.push('');
  lines.push('contender                    median/s      min/s      max/s   p50 ms   p99 ms   client µs/op   server µs/op');
  for (const contender of config.contenders) {
    const s = rates[contender]!;
    const rs = results[contender];
    const server = rs.map((r) => r.serverCpuUsPerAppend).filter((v): v is number => v !== undefined);
    lines.push(
      [
        LABEL[contender].padEnd(26),
        formatRate(s.median).padStart(10),
        formatRate(s.min).padStart(10),
        formatRate(s.max).padStart(10),
        median(rs.map((r) => r.latencyMs.p50))
          .toFixed(2)
          .padStart(8),
        median(rs.map((r) => r.latencyMs.p99))
          .toFixed(2)
          .padStart(8),
        String(Math.round(median(rs.map((r) => r.clientCpuUsPerAppend)))).padStart(14),
        (server.length ? String(Math.round(median(server))) : '-').padStart(14),
      ].join(' '),
    );
  }
  const vsEmmett = ratio(med('idem'), med('emmett'));
  const vsRaw = ratio(med('idem'), med('raw'));
  const perCommitVsRaw = ratio(med('idem_per_commit'), med('raw'));
  lines.push('');
  if (vsEmmett !== undefined)
    lines.push(
      `Idem / Emmett: ${vsEmmett.toFixed(2)} (target ≥ ${TARGETS.ratio_vs_emmett}); per round ${perRound('emmett')
        .map((v) => v.toFixed(2))
        .join(', ')}`,
    );
  if (vsRaw !== undefined)
    lines.push(
      `Idem / raw:    ${vsRaw.toFixed(2)} (target ≥ ${TARGETS.ratio_vs_raw}); per round ${perRound('raw')
        .map((v) => v.toFixed(2))
        .join(', ')}`,
    );
  if (perCommitVsRaw !== undefined) {
    lines.push(
      `Idem with a commit per append / raw: ${perCommitVsRaw.toFixed(2)}; per round ${perRound('raw', 'idem_per_commit')
        .map((v) => v.toFixed(2))
        .join(', ')}`,
    );
  }
  if (catchUpSpread) {
    lines.push(
      `Catch-up: subscribeToAll over ${config.catchUpEvents.toLocaleString('en-US')} events: median ${formatRate(catchUpSpread.median)} events/s ` +
        `(min ${formatRate(catchUpSpread.min)}, max ${formatRate(catchUpSpread.max)}; target ≥ ${formatRate(TARGETS.catchup_events_per_s)})`,
    );
  }
  lines.push('');
  process.stdout.write(lines.join('\n') + '\n');

  const r = (value: number | undefined, digits = 0) => (value === undefined ? null : round(value, digits));
  const spreadJson = (s: Spread | undefined) =>
    s ? { median: r(s.median), min: r(s.min), max: r(s.max), runs: s.runs.map((v) => r(v)) } : null;
  const summary = {
    idem_appends_per_s: r(med('idem')),
    emmett_appends_per_s: r(med('emmett')),
    raw_insert_per_s: r(med('raw')),
    ratio_vs_emmett: r(vsEmmett, 3),
    ratio_vs_raw: r(vsRaw, 3),
    catchup_events_per_s: r(catchUpSpread?.median),
    targets_met: {
      ratio_vs_emmett: vsEmmett === undefined ? null : vsEmmett >= TARGETS.ratio_vs_emmett,
      ratio_vs_raw: vsRaw === undefined ? null : vsRaw >= TARGETS.ratio_vs_raw,
      catchup_events_per_s: catchUpSpread === undefined ? null : catchUpSpread.median >= TARGETS.catchup_events_per_s,
    },
    ratio_vs_emmett_per_round: perRound('emmett').map((v) => round(v, 3)),
    ratio_vs_raw_per_round: perRound('raw').map((v) => round(v, 3)),
    idem_per_commit_appends_per_s: r(med('idem_per_commit')),
    ratio_per_commit_vs_raw: r(perCommitVsRaw, 3),
    ratio_per_commit_vs_raw_per_round: perRound('raw', 'idem_per_commit').map((v) => round(v, 3)),
    spread: {
      idem: spreadJson(rates.idem),
      idem_per_commit: spreadJson(rates.idem_per_commit),
      emmett: spreadJson(rates.emmett),
      raw: spreadJson(rates.raw),
      catchup: spreadJson(catchUpSpread),
    },
    latency_p99_ms: Object.fromEntries(config.contenders.map((c) => [c, round(median(results[c].map((x) => x.latencyMs.p99)), 2)])),
    client_cpu_us_per_append: Object.fromEntries(
      config.contenders.map((c) => [c, round(median(results[c].map((x) => x.clientCpuUsPerAppend)))]),
    ),
    server_cpu_us_per_append: Object.fromEntries(
      config.contenders.map((c) => {
        const values = results[c].map((x) => x.serverCpuUsPerAppend).filter((v): v is number => v !== undefined);
        return [c, values.length ? round(median(values)) : null];
      }),
    ),
    config: { ...config, eventDataBytes: sizes.data, eventMetadataBytes: sizes.metadata },
    machine: { ...machine, postgres: postgres.version, settings: postgres.settings },
  };
  process.stdout.write(JSON.stringify(summary) + '\n');
}

main().catch((error) => {
  process.stderr.write(`bench:append failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
