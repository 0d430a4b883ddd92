/** The human summary and the last-line JSON of bench:charges, from the measured rounds. */
import { describeMachine, type MachineInfo, type PostgresInfo } from '../lib/machine';
import { median, round, spread, formatRate } from '../lib/stats';
import type { RoundResult } from './charge-round';
import { TARGETS, type Config } from './config';
import { formatSplit, medianSplit, roundSplit, type CpuSplit } from './cpu-split';
import type { HelloResult } from './hello';
import type { PhaseResult } from './phase';

export function report(
  config: Config,
  machine: MachineInfo,
  postgres: PostgresInfo,
  rounds: RoundResult[],
  hellos: HelloResult[],
  peakRssMb: number,
  startRssMb: number | undefined,
  endLoad: number[],
): void {
  const firsts = spread(rounds.map((r) => r.first.perSecond));
  const dups = spread(rounds.map((r) => r.duplicates.perSecond));
  const p99First = median(rounds.map((r) => r.first.p99Ms));
  const p99Dup = median(rounds.map((r) => r.duplicates.p99Ms));
  const settled = rounds.every((r) => r.settledReplays) ? spread(rounds.map((r) => r.settledReplays!.perSecond)) : undefined;
  const p99Settled = settled ? median(rounds.map((r) => r.settledReplays!.p99Ms)) : undefined;
  const helloRps = spread(hellos.map((h) => h.rps));
  // The round furthest from "exactly one charge and one paid order per order" speaks for the run.
  const worst = (pick: (r: RoundResult) => number) =>
    rounds.map(pick).reduce((a, b) => (Math.abs(b - config.orders) > Math.abs(a - config.orders) ? b : a));
  const providerCharges = worst((r) => r.providerCharges);
  const ordersPaid = worst((r) => r.ordersPaid);
  const phasesOf = (r: RoundResult) => [r.first, r.duplicates, ...(r.settledReplays ? [r.settledReplays] : [])];
  const errors = rounds.reduce((sum, r) => sum + phasesOf(r).reduce((n, p) => n + p.errors + (p.requests - p.errors - p.ok), 0), 0);
  // CPU time per answered request, µs, median over rounds.
  const usPer = (phases: PhaseResult[], part: 'service' | 'postgres') =>
    Math.round(median(phases.map((p) => ((p.cpu[part] ?? NaN) / p.perSecond) * 1e6)));

  // CPU of everything one order costs (API, projections, reactor, job, sandbox, webhook), from the CPU of
  // phases 1 + 2 + settling with the duplicates taken out at what a settled replay costs.
  const pipelinePart = (part: 'service' | 'postgres') =>
    median(
      rounds.map((r) => {
        const seconds = (c: CpuSplit) => (c[part] ?? NaN) * c.wallS;
        const replay = r.settledReplays ? seconds(r.settledReplays.cpu) / r.settledReplays.ok : NaN;
        return (
          ((seconds(r.first.cpu) + seconds(r.duplicates.cpu) + seconds(r.settleCpu) - replay * r.duplicates.ok) / config.orders) * 1000
        );
      }),
    );
  const pipelineMs = settled && config.workerInApi ? { service: pipelinePart('service'), postgres: pipelinePart('postgres') } : undefined;

  const lines: string[] = [];
  const f1 = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? '-' : v.toFixed(1));
  lines.push('');
  lines.push(
    `Charges: ${config.orders} orders × ${config.copies} requests over HTTP at concurrency ${config.concurrency}; sandbox latency ${config.latencyMs} ms; ` +
      `worker concurrency ${config.workerConcurrency}${config.workerInApi ? '' : ' (WORKER NOT IN THE API PROCESS: diagnostic mode, nothing gets charged)'}; ` +
      (config.serviceNodeFlags.length ? `service node flags ${config.serviceNodeFlags.join(' ')}; ` : '') +
      `${config.rounds} rounds after a ${config.warmupOrders}-order warm-up${config.trace ? '; TRACED (instrumented: figures are lower than an untraced run)' : ''}.`,
  );
  lines.push(describeMachine(machine, postgres));
  lines.push(
    `load average at the end: ${endLoad.map((v) => v.toFixed(2)).join(' ')} (2 shared cores: other engineers' runs compete for them)`,
  );
  lines.push('');
  lines.push('         phase 1: first       phase 2: duplicates   phase 3: settled dups');
  lines.push(
    'round    /s  p50 ms  p99 ms      /s  p50 ms  p99 ms      /s  p50 ms  p99 ms  paid after s  paid  charges  hello/s  hello p99  load1',
  );
  rounds.forEach((r, i) => {
    const h = hellos[i];
    const cols = (p?: PhaseResult) => [formatRate(p?.perSecond ?? NaN).padStart(7), f1(p?.p50Ms).padStart(7), f1(p?.p99Ms).padStart(7)];
    lines.push(
      [
        r.label.padEnd(5),
        ...cols(r.first),
        ...cols(r.duplicates),
        ...cols(r.settledReplays),
        f1(r.allPaidAfterS).padStart(13),
        String(r.ordersPaid).padStart(5),
        String(r.providerCharges).padStart(8),
        formatRate(h.rps).padStart(8),
        f1(h.p99Ms).padStart(10),
        r.first.cpu.load1.toFixed(2).padStart(6),
      ].join(' '),
    );
  });
  lines.push('');
  lines.push('CPU in cores (median over rounds; the machine has 2; "other processes" is everyone else on the machine):');
  lines.push(`  phase 1 (first requests, worker charging alongside): ${formatSplit(medianSplit(rounds.map((r) => r.first.cpu)))}`);
  lines.push(`  phase 2 (duplicates, worker charging alongside):     ${formatSplit(medianSplit(rounds.map((r) => r.duplicates.cpu)))}`);
  lines.push(`  settling (worker only, bench polls GET):             ${formatSplit(medianSplit(rounds.map((r) => r.settleCpu)))}`);
  if (settled)
    lines.push(
      `  phase 3 (duplicates of settled orders):              ${formatSplit(medianSplit(rounds.map((r) => r.settledReplays!.cpu)))}`,
    );
  lines.push(`  hello ceiling (service idle):                        ${formatSplit(medianSplit(hellos.map((h) => h.cpu)))}`);
  lines.push(
    `  CPU per answered request (median round): phase 1 service ${usPer(
      rounds.map((r) => r.first),
      'service',
    )} µs + PostgreSQL ${usPer(
      rounds.map((r) => r.first),
      'postgres',
    )} µs; ` +
      `phase 2 service ${usPer(
        rounds.map((r) => r.duplicates),
        'service',
      )} µs + PostgreSQL ${usPer(
        rounds.map((r) => r.duplicates),
        'postgres',
      )} µs` +
      (settled
        ? `; phase 3 service ${usPer(
            rounds.map((r) => r.settledReplays!),
            'service',
          )} µs + PostgreSQL ${usPer(
            rounds.map((r) => r.settledReplays!),
            'postgres',
          )} µs`
        : '') +
      `; hello app ${Math.round(median(hellos.map((h) => ((h.cpu.hello ?? NaN) / h.rps) * 1e6)))} µs`,
  );
  if (pipelineMs) {
    lines.push(
      `  The whole charge pipeline per order (CPU over phases 1, 2 and settling, minus the duplicates at their phase-3 cost; includes idle polling and the bench's GETs): ` +
        `service ${pipelineMs.service.toFixed(2)} ms + PostgreSQL ${pipelineMs.postgres.toFixed(2)} ms`,
    );
  }
  lines.push(
    `Memory: service RSS ${startRssMb?.toFixed(0) ?? '?'} MiB after start, peak ${peakRssMb.toFixed(0)} MiB (VmHWM; embedded PostgreSQL's own processes not included).`,
  );
  for (const r of rounds) {
    for (const [name, phase] of [
      ['phase 1', r.first],
      ['phase 2', r.duplicates],
      ['phase 3', r.settledReplays],
    ] as const) {
      if (phase?.unexpected.length)
        lines.push(`${r.label} ${name}: unexpected answers ${JSON.stringify(phase.statusCounts)}: ${phase.unexpected.join(' | ')}`);
    }
  }
  const last = rounds[rounds.length - 1];
  if (last.first.trace) {
    lines.push('');
    lines.push(
      `Trace of the service (round ${last.label}; instrumented run; "per request" divides by the phase's HTTP requests, settling by orders):`,
    );
    for (const [name, trace] of [
      ['phase 1 (first requests, worker running alongside)', last.first.trace],
      ['phase 2 (duplicates, worker running alongside)', last.duplicates.trace],
      ['settling (worker, plus the bench polling GET /v1/orders)', last.settleTrace],
      ['phase 3 (duplicates of settled orders)', last.settledReplays?.trace],
    ] as const) {
      if (!trace) continue;
      lines.push(
        `  ${name}: ${trace.queriesPerRequest.toFixed(2)} SQL statements per request, event loop ${(trace.eventLoopUtilization * 100).toFixed(0)} % busy ` +
          `(delay p99 ${trace.eventLoopDelayP99Ms.toFixed(1)} ms, max ${trace.eventLoopDelayMaxMs.toFixed(1)} ms), Node ${trace.nodeCpuCores.toFixed(2)} cores; ` +
          `at the end RSS ${trace.memoryMb.rss.toFixed(0)} MiB, V8 heap ${trace.memoryMb.heapUsed.toFixed(0)} used of ${trace.memoryMb.heapTotal.toFixed(0)} MiB, external ${trace.memoryMb.external.toFixed(0)} MiB`,
      );
      for (const p of trace.pools) {
        if (p.checkouts)
          lines.push(
            `    pool ${p.pool}: ${p.checkouts} checkouts, avg wait ${p.avgWaitMs.toFixed(2)} ms, ${p.waitedOver1ms} waited > 1 ms, max ${p.maxWaiting} waiting, ${p.maxTotal} connections`,
          );
      }
      for (const st of trace.statements.slice(0, 14)) {
        lines.push(
          `    ${st.perRequest.toFixed(3).padStart(7)}/req  ${String(st.calls).padStart(6)} calls  ${st.avgMs.toFixed(2).padStart(6)} ms avg  ${st.statement}`,
        );
      }
    }
  }
  for (const [name, phase] of [
    ['phase 1', last.first],
    ['phase 2', last.duplicates],
    ['phase 3', last.settledReplays],
  ] as const) {
    const profile = phase?.profile;
    if (!profile) continue;
    const busy = profile.totalMs - (profile.self.find(([area]) => area === 'idle')?.[1] ?? 0);
    const pct = (ms: number) => `${((ms / busy) * 100).toFixed(1)} %`;
    lines.push('');
    lines.push(
      `CPU profile of the service's main thread, ${name} of ${last.label}: ${busy.toFixed(0)} ms busy of ${profile.totalMs.toFixed(0)} ms (shares of busy time)`,
    );
    lines.push(
      `  self time:  ${profile.self
        .filter(([a]) => a !== 'idle')
        .slice(0, 16)
        .map(([a, ms]) => `${a} ${pct(ms)}`)
        .join(', ')}`,
    );
    lines.push(
      `  by owner:   ${profile.owner
        .filter(([a]) => a !== 'idle')
        .slice(0, 16)
        .map(([a, ms]) => `${a} ${pct(ms)}`)
        .join(', ')}`,
    );
    lines.push(
      `  inclusive:  ${profile.inclusive
        .filter(([a]) => a !== 'idle')
        .slice(0, 22)
        .map(([a, ms]) => `${a} ${pct(ms)}`)
        .join(', ')}`,
    );
    lines.push(
      `  hottest:    ${profile.topFunctions
        .filter(([fn]) => !fn.startsWith('(idle)'))
        .slice(0, 12)
        .map(([fn, ms]) => `${fn} ${pct(ms)}`)
        .join('; ')}`,
    );
  }
  const met = {
    first_charges_per_s: firsts.median >= TARGETS.first_charges_per_s,
    duplicate_replays_per_s: dups.median >= TARGETS.duplicate_replays_per_s,
    p99_duplicate_ms: p99Dup <= TARGETS.p99_duplicate_ms,
    exactly_once: rounds.every((r) => r.providerCharges === config.orders && r.ordersPaid === config.orders && r.ordersChargedTwice === 0),
    peak_rss_mb: peakRssMb <= TARGETS.peak_rss_mb,
  };
  const verdict = (ok: boolean) => (ok ? 'MET' : 'MISSED');
  lines.push('');
  lines.push(`Summary (medians of ${rounds.length} rounds, min–max):`);
  lines.push(
    `  first charges      ${formatRate(firsts.median)}/s (${formatRate(firsts.min)}–${formatRate(firsts.max)}), p99 ${p99First.toFixed(1)} ms   target ≥ ${TARGETS.first_charges_per_s}/s: ${verdict(met.first_charges_per_s)}`,
  );
  lines.push(
    `  duplicate replays  ${formatRate(dups.median)}/s (${formatRate(dups.min)}–${formatRate(dups.max)}), p99 ${p99Dup.toFixed(1)} ms   targets ≥ ${TARGETS.duplicate_replays_per_s}/s: ${verdict(met.duplicate_replays_per_s)}, p99 ≤ ${TARGETS.p99_duplicate_ms} ms: ${verdict(met.p99_duplicate_ms)}`,
  );
  if (settled)
    lines.push(
      `  (diagnostic) duplicates of settled orders ${formatRate(settled.median)}/s (${formatRate(settled.min)}–${formatRate(settled.max)}), p99 ${p99Settled!.toFixed(1)} ms`,
    );
  lines.push(`  hello ceiling      ${formatRate(helloRps.median)}/s (${formatRate(helloRps.min)}–${formatRate(helloRps.max)})`);
  lines.push(
    `  exactly once       provider charges ${providerCharges}, orders paid ${ordersPaid} (want ${config.orders} each, every round): ${verdict(met.exactly_once)}`,
  );
  lines.push(`  peak RSS           ${peakRssMb.toFixed(0)} MiB   target ≤ ${TARGETS.peak_rss_mb}: ${verdict(met.peak_rss_mb)}`);
  lines.push(`  unexpected answers or transport errors: ${errors}`);
  lines.push('');
  process.stdout.write(lines.join('\n') + '\n');

  const n = (value: number | undefined, digits = 0) => (value === undefined || Number.isNaN(value) ? null : round(value, digits));
  const summary = {
    first_charges_per_s: n(firsts.median),
    duplicate_replays_per_s: n(dups.median),
    p99_first_ms: n(p99First, 1),
    p99_duplicate_ms: n(p99Dup, 1),
    hello_rps: n(helloRps.median),
    provider_charges: providerCharges,
    orders_paid: ordersPaid,
    peak_rss_mb: n(peakRssMb),
    targets_met: met,
    settled_duplicate_replays_per_s: n(settled?.median),
    p99_settled_duplicate_ms: n(p99Settled, 1),
    rounds: rounds.length,
    runs: {
      first_charges_per_s: firsts.runs.map((v) => n(v)),
      duplicate_replays_per_s: dups.runs.map((v) => n(v)),
      p99_first_ms: rounds.map((r) => n(r.first.p99Ms, 1)),
      p99_duplicate_ms: rounds.map((r) => n(r.duplicates.p99Ms, 1)),
      settled_duplicate_replays_per_s: rounds.map((r) => n(r.settledReplays?.perSecond)),
      hello_rps: helloRps.runs.map((v) => n(v)),
      all_paid_after_s: rounds.map((r) => n(r.allPaidAfterS, 2)),
      provider_charges: rounds.map((r) => r.providerCharges),
      orders_paid: rounds.map((r) => r.ordersPaid),
      load1: rounds.map((r) => n(r.first.cpu.load1, 2)),
    },
    unexpected_answers_or_errors: errors,
    cpu_cores: {
      first: roundSplit(medianSplit(rounds.map((r) => r.first.cpu))),
      duplicates: roundSplit(medianSplit(rounds.map((r) => r.duplicates.cpu))),
      settle: roundSplit(medianSplit(rounds.map((r) => r.settleCpu))),
      settled_duplicates: settled ? roundSplit(medianSplit(rounds.map((r) => r.settledReplays!.cpu))) : null,
      hello: roundSplit(medianSplit(hellos.map((h) => h.cpu))),
    },
    cpu_us_per_request: {
      first: {
        service: usPer(
          rounds.map((r) => r.first),
          'service',
        ),
        postgres: usPer(
          rounds.map((r) => r.first),
          'postgres',
        ),
      },
      duplicates: {
        service: usPer(
          rounds.map((r) => r.duplicates),
          'service',
        ),
        postgres: usPer(
          rounds.map((r) => r.duplicates),
          'postgres',
        ),
      },
      settled_duplicates: settled
        ? {
            service: usPer(
              rounds.map((r) => r.settledReplays!),
              'service',
            ),
            postgres: usPer(
              rounds.map((r) => r.settledReplays!),
              'postgres',
            ),
          }
        : null,
      hello: Math.round(median(hellos.map((h) => ((h.cpu.hello ?? NaN) / h.rps) * 1e6))),
    },
    cpu_ms_per_order_pipeline: pipelineMs ? { service: n(pipelineMs.service, 2), postgres: n(pipelineMs.postgres, 2) } : null,
    load_average_end: endLoad.map((v) => round(v, 2)),
    traced: config.trace,
    config: {
      orders: config.orders,
      copies: config.copies,
      concurrency: config.concurrency,
      provider_latency_ms: config.latencyMs,
      worker_concurrency: config.workerConcurrency,
      worker_in_api: config.workerInApi,
      service_node_flags: config.serviceNodeFlags.join(' '),
      warmup_orders: config.warmupOrders,
      hello_s: config.helloS,
    },
    machine: { cores: machine.cores, cpu: machine.cpuModel, node: machine.node, postgres: postgres.version },
  };
  process.stdout.write(JSON.stringify(summary) + '\n');
}
