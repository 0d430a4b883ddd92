/** One measured phase of a charge round: POSTs at the configured concurrency, with CPU split, trace and profile. */
import { existsSync } from 'node:fs';
import { progress } from '../lib/log';
import { formatRate, percentile } from '../lib/stats';
import { AUTH, type Config } from './config';
import { formatSplit, read, split, type CpuSplit, type Pids } from './cpu-split';
import { runLoad, type LoadResult } from './http-load';
import { summarizeProfile, type ProfileSummary } from './profile-summary';
import { memoryMb, type ServiceProcess } from './service';
import { traceDelta, type TraceDelta, type Tracer } from './tracer';

export interface PhaseResult {
  requests: number;
  /** Answers that were what the phase expects (202 first, replayed duplicates). */
  ok: number;
  perSecond: number;
  elapsedS: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  statusCounts: Record<string, number>;
  errors: number;
  unexpected: string[];
  cpu: CpuSplit;
  /** The service's RSS right after the phase, MiB. */
  rssAfterMb?: number;
  trace?: TraceDelta;
  profile?: ProfileSummary;
}

export interface Context {
  config: Config;
  service: ServiceProcess;
  pids: Pids;
  tracer?: Tracer;
  tempDir: string;
  rssMaxMb: number;
}

export function phaseResult(load: LoadResult, ok: number, unexpected: string[], cpu: CpuSplit): PhaseResult {
  const lat = load.latenciesMs;
  return {
    requests: load.answered + load.errors,
    ok,
    perSecond: ok / (load.elapsedMs / 1000),
    elapsedS: load.elapsedMs / 1000,
    p50Ms: percentile(lat, 50),
    p90Ms: percentile(lat, 90),
    p99Ms: percentile(lat, 99),
    maxMs: percentile(lat, 100),
    statusCounts: load.statusCounts,
    errors: load.errors,
    unexpected: load.firstError ? [...unexpected, `error: ${load.firstError}`] : unexpected,
    cpu,
  };
}

/** One measured phase: `total` POSTs at the configured concurrency, CPU split, trace and profile. */
export async function postPhase(
  ctx: Context,
  name: string,
  total: number,
  request: (index: number) => { orderId: string; body: string },
  expected: (status: number, replayed: boolean) => boolean,
  profilePath: string | undefined,
): Promise<PhaseResult> {
  const traceBefore = ctx.tracer ? await ctx.tracer.command(profilePath ? 'profile-start' : 'snapshot') : undefined;
  const before = read(ctx.pids);
  let ok = 0;
  const unexpected: string[] = [];
  const load = await runLoad({
    url: ctx.service.apiUrl,
    concurrency: ctx.config.concurrency,
    headers: AUTH,
    total,
    request: (i) => {
      const { orderId, body } = request(i);
      return { method: 'POST', path: `/v1/orders/${orderId}/charge`, body };
    },
    onAnswer: (i, answer) => {
      if (expected(answer.status, answer.replayed)) ok++;
      else if (unexpected.length < 5)
        unexpected.push(
          `${request(i).orderId}: ${answer.status}${answer.replayed ? ' (replayed)' : ''} ${answer.body.toString().slice(0, 200)}`,
        );
    },
  });
  const after = read(ctx.pids);
  const traceAfter = ctx.tracer ? await ctx.tracer.command(profilePath ? `profile-stop ${profilePath}` : 'snapshot') : undefined;
  if (load.answered === 0)
    throw new Error(`${name}: no request was answered (${load.firstError}); service output:\n${ctx.service.output().slice(-3000)}`);
  const result = phaseResult(load, ok, unexpected, split(before, after));
  result.rssAfterMb = memoryMb(ctx.service.pid)?.rss;
  if (traceBefore && traceAfter) result.trace = traceDelta(traceBefore, traceAfter, total, result.cpu.wallS);
  if (profilePath && existsSync(profilePath)) result.profile = summarizeProfile(profilePath);
  progress(
    `  ${name}: ${ok}/${total} as expected in ${result.elapsedS.toFixed(2)} s = ${formatRate(result.perSecond)}/s, ` +
      `p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms; ${formatSplit(result.cpu)}; service RSS ${result.rssAfterMb?.toFixed(0)} MiB`,
  );
  return result;
}
