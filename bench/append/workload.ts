/**
 * The workload every append contender runs, so that only the store differs: `writers` concurrent
 * loops, each appending one event per call to its own streams with the exact expected revision,
 * starting a new stream every `eventsPerStream` events (first append = "no stream"). A warm-up
 * phase, then a fixed measuring window; appends completing inside the window are counted.
 */
import { createHash, randomUUID } from 'node:crypto';
import { percentile } from '../lib/stats';

export interface AppendInput {
  contender: 'idem' | 'idem_per_commit' | 'emmett' | 'raw';
  url: string;
  round: number;
  writers: number;
  eventsPerStream: number;
  warmupMs: number;
  durationMs: number;
}

export interface AppendResult {
  contender: AppendInput['contender'];
  round: number;
  appends: number;
  seconds: number;
  appendsPerSecond: number;
  latencyMs: { p50: number; p99: number; max: number };
  /** Client (this Node process) CPU per append, in microseconds: user + system. */
  clientCpuUsPerAppend: number;
  /** Database server CPU per append in microseconds (all PostgreSQL processes), when /proc allows reading it. */
  serverCpuUsPerAppend?: number;
}

/** Appends `event` to `stream`; `revision` is the 0-based revision the event gets (0 = new stream). */
export type AppendOne = (stream: string, revision: number, event: BenchEvent) => Promise<void>;

export interface BenchEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
  metadata: { correlationId: string; causationId: string; actor: { role: string; tokenId: string }; recordedAt: string };
}

let counter = 0;

/** A `ChargeRequested`-shaped event whose data serialises to about 234 bytes of JSON. */
export function benchEvent(stream: string): BenchEvent {
  counter += 1;
  const orderId = stream.slice(stream.indexOf('-') + 1);
  const data = {
    orderId,
    amount: 1999 + (counter % 1000),
    currency: 'EUR',
    customerId: `cus_${(counter % 100_000).toString().padStart(8, '0')}`,
    requestFingerprint: createHash('sha1').update(orderId).digest('hex'),
    providerKey: `idem-${orderId}`,
    description: 'Benchmark order for a storefront',
  };
  return {
    id: randomUUID(),
    type: 'ChargeRequested',
    data,
    metadata: {
      correlationId: randomUUID(),
      causationId: randomUUID(),
      actor: { role: 'storefront', tokenId: 'bench' },
      recordedAt: new Date().toISOString(),
    },
  };
}

export function eventSizes(): { data: number; metadata: number } {
  const event = benchEvent('order-r0w00s0000000');
  return { data: Buffer.byteLength(JSON.stringify(event.data)), metadata: Buffer.byteLength(JSON.stringify(event.metadata)) };
}

export async function runWorkload(input: AppendInput, appendOne: AppendOne, serverCpu?: () => number | undefined): Promise<AppendResult> {
  // An object, not a `let`: the writers read it across awaits while the timer below changes it.
  const state: { phase: 'warmup' | 'measure' | 'stop' } = { phase: 'warmup' };
  const stopping = () => state.phase === 'stop' || failure !== undefined;
  let measured = 0;
  const latencies: number[] = [];
  let failure: unknown;

  const writer = async (index: number) => {
    for (let stream = 0; !stopping(); stream += 1) {
      const name = `order-r${input.round}w${String(index).padStart(2, '0')}s${String(stream).padStart(7, '0')}`;
      for (let revision = 0; revision < input.eventsPerStream && !stopping(); revision += 1) {
        const event = benchEvent(name);
        const started = process.hrtime.bigint();
        const counted = state.phase === 'measure';
        await appendOne(name, revision, event);
        if (counted && state.phase === 'measure') {
          measured += 1;
          latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
        }
      }
    }
  };

  const running = Promise.all(Array.from({ length: input.writers }, (_, index) => writer(index).catch((error) => (failure ??= error))));
  await sleep(input.warmupMs);
  if (failure) throw failure;
  state.phase = 'measure';
  const cpuBefore = process.cpuUsage();
  const serverBefore = serverCpu?.();
  const started = process.hrtime.bigint();
  await sleep(input.durationMs);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const appends = measured;
  const cpu = process.cpuUsage(cpuBefore);
  const serverAfter = serverCpu?.();
  state.phase = 'stop';
  await running;
  if (failure) throw failure;
  return {
    contender: input.contender,
    round: input.round,
    appends,
    seconds,
    appendsPerSecond: appends / seconds,
    latencyMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: percentile(latencies, 100) },
    clientCpuUsPerAppend: (cpu.user + cpu.system) / appends,
    serverCpuUsPerAppend:
      serverBefore !== undefined && serverAfter !== undefined ? ((serverAfter - serverBefore) * 1e6) / appends : undefined,
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
