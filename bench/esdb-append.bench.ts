/**
 * `npm run bench:esdb` (= `node -r ./bench/lib/register.js bench/esdb-append.bench.ts`): does the
 * EventStoreDB adapter add overhead to the client it wraps? The PostgreSQL benchmark's workload — one
 * event per append, exact expected revision, 16 writers on distinct short streams — through
 * `EsdbEventStore.append` and through the client's raw `appendToStream`, each in its own process against
 * its own fresh emulator (also in its own process), warm-up then a fixed window, rounds interleaved,
 * medians and spread reported. Target: `ratio_vs_raw_client ≥ 0.9`.
 *
 * Environment (defaults in brackets): BENCH_DURATION_S [15], BENCH_WARMUP_S [5], BENCH_ROUNDS [3],
 * BENCH_WRITERS [16], BENCH_EVENTS_PER_STREAM [10]. Progress goes to stderr; stdout gets a summary and,
 * as its last line, one JSON object.
 */
import { fork } from 'node:child_process';
import { resolve } from 'node:path';
import type { AppendResult } from './append/workload';
import { eventSizes } from './append/workload';
import type { EsdbContenderInput } from './esdb/contender';
import { runChild } from './lib/child';
import { progress } from './lib/log';
import { numberFromEnv } from './lib/env';
import { machineInfo } from './lib/machine';
import { formatRate, median, round, spread } from './lib/stats';

type Contender = 'idem' | 'raw';
const LABEL: Record<Contender, string> = { idem: 'EsdbEventStore.append', raw: 'client appendToStream (ceiling)' };
const TARGET_RATIO = 0.9;

/** A fresh emulator in its own process; `stop()` ends it. */
function startEmulatorHost(): Promise<{ connectionString: string; pid: number; stop(): Promise<void> }> {
  const child = fork(resolve(__dirname, 'esdb/emulator-host.ts'), [], {
    execArgv: ['-r', resolve(__dirname, 'lib/register.js')],
    stdio: ['ignore', process.stderr, 'inherit', 'ipc'],
  });
  return new Promise((resolvePromise, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`emulator host exited early (code ${code})`)));
    child.once('message', (message: { connectionString: string }) =>
      resolvePromise({
        connectionString: message.connectionString,
        pid: child.pid!,
        stop: () =>
          new Promise<void>((done) => {
            child.removeAllListeners('exit');
            child.once('exit', () => done());
            child.send('stop');
          }),
      }),
    );
  });
}

async function main(): Promise<void> {
  const config = {
    durationS: numberFromEnv('BENCH_DURATION_S', 15, 0.5),
    warmupS: numberFromEnv('BENCH_WARMUP_S', 5, 0),
    rounds: numberFromEnv('BENCH_ROUNDS', 3, 1),
    writers: numberFromEnv('BENCH_WRITERS', 16, 1),
    eventsPerStream: numberFromEnv('BENCH_EVENTS_PER_STREAM', 10, 1),
  };
  const sizes = eventSizes();
  progress(`config ${JSON.stringify(config)}; event data ${sizes.data} B JSON, metadata ${sizes.metadata} B JSON`);
  const results: Record<Contender, AppendResult[]> = { idem: [], raw: [] };
  for (let roundNo = 1; roundNo <= config.rounds; roundNo++) {
    for (const contender of ['idem', 'raw'] as const) {
      progress(`round ${roundNo}/${config.rounds}: ${LABEL[contender]} (warm-up ${config.warmupS}s, measure ${config.durationS}s)`);
      const host = await startEmulatorHost();
      try {
        const input: EsdbContenderInput = {
          contender,
          url: host.connectionString,
          emulatorPid: host.pid,
          round: roundNo,
          writers: config.writers,
          eventsPerStream: config.eventsPerStream,
          warmupMs: config.warmupS * 1000,
          durationMs: config.durationS * 1000,
        };
        const result = await runChild<EsdbContenderInput, AppendResult>(resolve(__dirname, 'esdb/contender.ts'), input, {
          timeoutMs: (config.warmupS + config.durationS) * 1000 + 120_000,
        });
        results[contender].push(result);
        progress(
          `  ${formatRate(result.appendsPerSecond)} appends/s (p50 ${result.latencyMs.p50.toFixed(2)} ms, p99 ${result.latencyMs.p99.toFixed(2)} ms, ` +
            `client CPU ${Math.round(result.clientCpuUsPerAppend)} µs/append, emulator CPU ${Math.round(result.serverCpuUsPerAppend ?? Number.NaN)} µs/append)`,
        );
      } finally {
        await host.stop();
      }
    }
  }
  report(config, results, sizes);
}

function report(
  config: { durationS: number; warmupS: number; rounds: number; writers: number; eventsPerStream: number },
  results: Record<Contender, AppendResult[]>,
  sizes: { data: number; metadata: number },
): void {
  const adapter = spread(results.idem.map((r) => r.appendsPerSecond));
  const raw = spread(results.raw.map((r) => r.appendsPerSecond));
  const ratio = adapter.median / raw.median;
  const perRound = results.idem.map((r, i) => r.appendsPerSecond / results.raw[i].appendsPerSecond);
  const cpu = (contender: Contender, field: 'clientCpuUsPerAppend' | 'serverCpuUsPerAppend') =>
    round(median(results[contender].map((r) => r[field] ?? Number.NaN)));
  const machine = machineInfo();
  const lines = [
    '',
    `EventStoreDB appends through the emulator: 1 event per append, exact expected revision, ${config.writers} writers, new stream every ${config.eventsPerStream} events,`,
    `event data ${sizes.data} B + metadata ${sizes.metadata} B JSON; ${config.rounds} interleaved rounds of ${config.warmupS}s warm-up + ${config.durationS}s measured.`,
    `Machine: ${machine.cores} cores (${machine.cpuModel}), ${machine.memoryGiB} GiB, Node ${machine.node}, load average ${machine.loadAverage.join(' ')}.`,
    '',
    'contender                          median/s      min/s      max/s   p99 ms   client µs/op   emulator µs/op',
    ...(['idem', 'raw'] as const).map((c) => {
      const s = c === 'idem' ? adapter : raw;
      return [
        LABEL[c].padEnd(32),
        ...[s.median, s.min, s.max].map((v) => formatRate(v).padStart(10)),
        median(results[c].map((r) => r.latencyMs.p99))
          .toFixed(2)
          .padStart(8),
        String(cpu(c, 'clientCpuUsPerAppend')).padStart(14),
        String(cpu(c, 'serverCpuUsPerAppend')).padStart(16),
      ].join(' ');
    }),
    '',
    `adapter / raw client: ${ratio.toFixed(3)} (target ≥ ${TARGET_RATIO}); per round ${perRound.map((v) => v.toFixed(3)).join(', ')}`,
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
  const summary = {
    esdb_adapter_appends_per_s: round(adapter.median),
    raw_client_appends_per_s: round(raw.median),
    ratio_vs_raw_client: round(ratio, 3),
    target_met: ratio >= TARGET_RATIO,
    ratio_per_round: perRound.map((v) => round(v, 3)),
    spread: { adapter: adapter.runs.map((v) => round(v)), raw: raw.runs.map((v) => round(v)) },
    client_cpu_us_per_append: { adapter: cpu('idem', 'clientCpuUsPerAppend'), raw: cpu('raw', 'clientCpuUsPerAppend') },
    emulator_cpu_us_per_append: { adapter: cpu('idem', 'serverCpuUsPerAppend'), raw: cpu('raw', 'serverCpuUsPerAppend') },
    machine: { cores: machine.cores, load_average: machine.loadAverage },
  };
  process.stdout.write(JSON.stringify(summary) + '\n');
}

main().catch((error: unknown) => {
  progress(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
