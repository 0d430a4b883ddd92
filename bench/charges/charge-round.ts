/** One round of the charge workload: first requests, duplicates, settling, what the provider holds, settled replays. */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { progress } from '../lib/log';
import { formatRate } from '../lib/stats';
import { AUTH } from './config';
import { formatSplit, read, split, type CpuSplit } from './cpu-split';
import { benchCustomerId, createCustomers } from './customers';
import { runLoad } from './http-load';
import { postPhase, type Context, type PhaseResult } from './phase';
import { sleep, traceDelta, type TraceDelta } from './tracer';

export interface RoundResult {
  label: string;
  first: PhaseResult;
  duplicates: PhaseResult;
  settledReplays?: PhaseResult;
  /** Seconds from the first request of phase 1 until the last order was seen paid. */
  allPaidAfterS?: number;
  settleCpu: CpuSplit;
  settleTrace?: TraceDelta;
  ordersPaid: number;
  providerCharges: number;
  ordersChargedTwice: number;
  ordersNotCharged: number;
  rssMaxMb: number;
}

export function orderBody(i: number): string {
  return JSON.stringify({ amount: 1000 + (i % 1000) * 100, currency: 'EUR', customerId: benchCustomerId(i) });
}

export async function armLatency(ctx: Context): Promise<void> {
  if (ctx.config.latencyMs <= 0) return;
  const answer = await fetch(`${ctx.service.sandboxUrl}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'latency', ms: ctx.config.latencyMs, probability: 1 }),
  });
  if (answer.status !== 201) throw new Error(`arming the sandbox latency failed: ${answer.status} ${await answer.text()}`);
}

export async function resetSandbox(ctx: Context): Promise<void> {
  const answer = await fetch(`${ctx.service.sandboxUrl}/_sandbox/reset`, { method: 'POST' });
  if (!answer.ok) throw new Error(`sandbox reset failed: ${answer.status}`);
  await armLatency(ctx);
}

export async function chargeRound(ctx: Context, label: string, orders: number, options: { profile: boolean }): Promise<RoundResult> {
  const { config, service } = ctx;
  const prefix = `bench-${randomBytes(3).toString('hex')}-${label}`;
  const ids = Array.from({ length: orders }, (_, i) => `${prefix}-${i}`);
  const bodies = ids.map((_, i) => orderBody(i));
  const profilePath = (phase: string) => (options.profile ? join(ctx.tempDir, `${label}-${phase}.cpuprofile`) : undefined);
  const duplicateCount = orders * (config.copies - 1);
  // Copies are interleaved: copy 2 of every order, then copy 3, … (never two copies of one order in a row).
  const duplicate = (j: number) => ({ orderId: ids[j % orders], body: bodies[j % orders] });
  const isReplay = (status: number, replayed: boolean) => (status === 202 || status === 200) && replayed;
  await createCustomers(
    service.sandboxUrl,
    ids.map((_, i) => benchCustomerId(i)),
  );

  // Phase 1: the first request for every order (202, not a replay).
  const started = performance.now();
  const first = await postPhase(
    ctx,
    `${label} phase 1 (first requests)`,
    orders,
    (i) => ({ orderId: ids[i], body: bodies[i] }),
    (status, replayed) => status === 202 && !replayed,
    profilePath('first'),
  );
  // Phase 2: the other copies, while the worker is charging these orders.
  const duplicates = await postPhase(ctx, `${label} phase 2 (duplicates)`, duplicateCount, duplicate, isReplay, profilePath('duplicates'));

  // Settle: wait until GET says paid for every order (read-your-writes: minRevision 2 = ChargeRequested,
  // ChargeAttemptStarted, outcome). The worker takes jobs roughly in order, so the newest pending orders
  // are probed first and the whole pending set is swept only once those are paid: the polling itself
  // must not become load on the service.
  const settleTraceBefore = ctx.tracer ? await ctx.tracer.command('snapshot') : undefined;
  const before = read(ctx.pids);
  const pending = new Set(ids.keys());
  let allPaidAt: number | undefined;
  let polls = 0;
  const deadline = Date.now() + config.settleTimeoutS * 1000;
  const checkPaid = async (indexes: number[]): Promise<number> => {
    let paid = 0;
    const load = await runLoad({
      url: service.apiUrl,
      concurrency: 8,
      headers: AUTH,
      total: indexes.length,
      request: (k) => ({ method: 'GET', path: `/v1/orders/${ids[indexes[k]]}?minRevision=2` }),
      onAnswer: (k, answer) => {
        if (answer.status === 200 && JSON.parse(answer.body.toString()).status === 'paid') {
          pending.delete(indexes[k]);
          paid++;
        }
      },
    });
    polls += indexes.length;
    if (load.errors === indexes.length)
      throw new Error(`settle: the api does not answer (${load.firstError}); service output:\n${service.output().slice(-3000)}`);
    if (load.errors) progress(`  settle poll: ${load.errors} errors (${load.firstError})`);
    return paid;
  };
  while (config.workerInApi && pending.size && Date.now() < deadline) {
    const newest = [...pending].slice(-8);
    if ((await checkPaid(newest)) === newest.length && pending.size) await checkPaid([...pending]);
    if (pending.size === 0) allPaidAt = performance.now();
    else await sleep(200);
  }
  const after = read(ctx.pids);
  const settleTraceAfter = ctx.tracer ? await ctx.tracer.command('snapshot') : undefined;
  const settleCpu = split(before, after);
  const ordersPaid = orders - pending.size;
  const allPaidAfterS = allPaidAt === undefined ? undefined : (allPaidAt - started) / 1000;

  // What the provider really holds for these orders: succeeded intents. `charge_attempts` also counts
  // a second charge the sandbox refused (it keeps one succeeded intent per order), so an order Idem
  // tried to charge twice still counts as charged twice.
  let providerCharges = 0;
  let ordersChargedTwice = 0;
  let ordersNotCharged = 0;
  const count = await runLoad({
    url: service.sandboxUrl,
    concurrency: 8,
    total: orders,
    request: (i) => ({ method: 'GET', path: `/_sandbox/charges?orderId=${encodeURIComponent(ids[i])}&status=succeeded` }),
    onAnswer: (_, answer) => {
      const { data, charge_attempts: attempts } = JSON.parse(answer.body.toString()) as { data: unknown[]; charge_attempts: number };
      const n = data.length;
      providerCharges += n;
      if (attempts > 1) ordersChargedTwice++;
      if (n === 0) ordersNotCharged++;
    },
  });
  if (count.errors || count.answered !== orders)
    throw new Error(`counting the sandbox's charges failed: ${count.firstError ?? `${count.answered}/${orders} answered`}`);
  if (config.workerInApi) {
    progress(
      `  ${label} settle: ${ordersPaid}/${orders} orders paid` +
        (allPaidAfterS !== undefined
          ? ` ${allPaidAfterS.toFixed(2)} s after the first request (${formatRate(orders / allPaidAfterS)} orders/s end to end)`
          : ` (timed out after ${config.settleTimeoutS} s)`) +
        `; provider holds ${providerCharges} succeeded intents (${ordersChargedTwice} orders charged twice, ${ordersNotCharged} not charged); ${polls} GETs polled; ${formatSplit(settleCpu)}`,
    );
  }

  // Diagnostic phase 3: the same duplicates again, now that every order is settled and the worker is
  // idle — what a replay costs on its own.
  const settledReplays = config.settledReplays
    ? await postPhase(
        ctx,
        `${label} phase 3 (duplicates of settled orders, diagnostic)`,
        duplicateCount,
        duplicate,
        isReplay,
        profilePath('settled-replays'),
      )
    : undefined;

  const rssMaxMb = ctx.rssMaxMb;
  if (config.resetSandbox) await resetSandbox(ctx);
  return {
    label,
    first,
    duplicates,
    settledReplays,
    allPaidAfterS,
    settleCpu,
    settleTrace:
      settleTraceBefore && settleTraceAfter ? traceDelta(settleTraceBefore, settleTraceAfter, orders, settleCpu.wallS) : undefined,
    ordersPaid,
    providerCharges,
    ordersChargedTwice,
    ordersNotCharged,
    rssMaxMb,
  };
}
