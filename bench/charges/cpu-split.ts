/** Resource readings: CPU seconds of each process, of PostgreSQL, of the whole machine, and their split per window. */
import { loadavg } from 'node:os';
import { median, round } from '../lib/stats';
import { cpuPressureUs, machineCpuSeconds, postgresCpuSeconds, processCpuSeconds } from './service';

export interface Reading {
  at: number;
  service?: number;
  postgres?: number;
  hello?: number;
  bench: number;
  machine?: { busy: number; total: number };
  pressureUs?: number;
  load1: number;
}

export interface CpuSplit {
  wallS: number;
  /** Cores used on average over the window (CPU seconds / wall seconds). */
  service?: number;
  postgres?: number;
  hello?: number;
  bench: number;
  /** Everything else on the machine: other engineers' work, the kernel, … */
  other?: number;
  idle?: number;
  /** Share of the window in which some runnable task waited for a CPU (PSI "some"), 0..1. */
  pressure?: number;
  load1: number;
}

export interface Pids {
  service?: number;
  postmaster?: number;
  hello?: number;
}

export function read(pids: Pids): Reading {
  const own = process.cpuUsage();
  return {
    at: performance.now(),
    service: processCpuSeconds(pids.service),
    postgres: postgresCpuSeconds(pids.postmaster),
    hello: processCpuSeconds(pids.hello),
    bench: (own.user + own.system) / 1e6,
    machine: machineCpuSeconds(),
    pressureUs: cpuPressureUs(),
    load1: loadavg()[0],
  };
}

export function split(a: Reading, b: Reading): CpuSplit {
  const wallS = (b.at - a.at) / 1000;
  const cores = (x?: number, y?: number) => (x !== undefined && y !== undefined ? (y - x) / wallS : undefined);
  const service = cores(a.service, b.service);
  const postgres = cores(a.postgres, b.postgres);
  const hello = cores(a.hello, b.hello);
  const bench = (b.bench - a.bench) / wallS;
  const busy = cores(a.machine?.busy, b.machine?.busy);
  const total = cores(a.machine?.total, b.machine?.total);
  const ours = (service ?? 0) + (postgres ?? 0) + (hello ?? 0) + bench;
  return {
    wallS,
    service,
    postgres,
    hello,
    bench,
    other: busy !== undefined ? Math.max(0, busy - ours) : undefined,
    idle: busy !== undefined && total !== undefined ? Math.max(0, total - busy) : undefined,
    pressure: a.pressureUs !== undefined && b.pressureUs !== undefined ? (b.pressureUs - a.pressureUs) / 1e6 / wallS : undefined,
    load1: b.load1,
  };
}

export function formatSplit(s: CpuSplit): string {
  const f = (v?: number) => (v === undefined ? '-' : v.toFixed(2));
  return `service ${f(s.service)}, PostgreSQL ${f(s.postgres)}, hello ${f(s.hello)}, load generator ${f(s.bench)}, other processes ${f(s.other)}, idle ${f(s.idle)} cores (load avg ${s.load1.toFixed(2)}${s.pressure !== undefined ? `, CPU pressure ${(s.pressure * 100).toFixed(0)} %` : ''})`;
}

/** The median of each part over several windows (rounds). */
export function medianSplit(splits: CpuSplit[]): CpuSplit {
  const m = (pick: (s: CpuSplit) => number | undefined) => {
    const values = splits.map(pick).filter((v): v is number => v !== undefined);
    return values.length ? median(values) : undefined;
  };
  return {
    wallS: m((s) => s.wallS)!,
    service: m((s) => s.service),
    postgres: m((s) => s.postgres),
    hello: m((s) => s.hello),
    bench: m((s) => s.bench)!,
    other: m((s) => s.other),
    idle: m((s) => s.idle),
    pressure: m((s) => s.pressure),
    load1: m((s) => s.load1)!,
  };
}

export function roundSplit(s: CpuSplit): Record<string, number | null> {
  const r = (v?: number) => (v === undefined ? null : round(v, 2));
  return {
    service: r(s.service),
    postgres: r(s.postgres),
    hello: r(s.hello),
    load_generator: r(s.bench),
    other: r(s.other),
    idle: r(s.idle),
    cpu_pressure: r(s.pressure),
    load1: r(s.load1),
  };
}
