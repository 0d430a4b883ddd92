/**
 * Provider faults on 30 % of charge requests (answers dropped or reset after the provider committed,
 * requests timing out before it did): no order is charged twice, and once the faults stop the
 * scheduled recovery settles every unknown outcome. An order whose provider keeps failing ends in
 * needs_review after five consecutive unknown outcomes.
 */
import { randomUUID } from 'node:crypto';
import { loadOrder } from '../../modules/payments';
import { auth } from '../harness/test-app';
import { startTestService, withConcurrency, type TestService } from '../harness/test-service';
import { isSucceededCharge } from '../../modules/sandbox';

jest.setTimeout(300_000);

let service: TestService;
beforeAll(async () => {
  service = await startTestService('provider_faults', {
    IDEM_RECOVERY_INTERVAL: '1s',
    IDEM_RECOVERY_THRESHOLD: '1s',
    IDEM_WORKER_CONCURRENCY: '8',
  });
  service.sandbox.createCustomer({ id: 'c' });
});
afterAll(() => service.close());

const fault = (body: object) =>
  fetch(`${service.sandbox.url}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const charge = (orderId: string) =>
  fetch(`${service.url}/v1/orders/${orderId}/charge`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth('storefront') },
    body: JSON.stringify({ amount: 7700, currency: 'EUR', customerId: 'c' }),
  });

async function settle(orderIds: string[], timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const states = await Promise.all(
      orderIds.map(async (orderId) => ({ orderId, ...(await loadOrder(service.runtime.eventStore, orderId)) })),
    );
    const open = states.filter(({ state }) => !['paid', 'failed', 'needs_review'].includes(state.status));
    if (open.length === 0) return states;
    if (Date.now() > deadline)
      throw new Error(
        `${open.length} orders still open: ${open
          .slice(0, 5)
          .map((s) => `${s.orderId}=${s.state.status}`)
          .join(', ')}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('charging while the provider misbehaves', () => {
  it('never charges twice and settles every order once faults stop', async () => {
    const orderIds = Array.from({ length: 60 }, (_, i) => `flt-${randomUUID().slice(0, 8)}-${i}`);
    // Search lags as Stripe's does ("usually within a minute"): verification must not depend on it.
    expect(await (await fetch(`${service.sandbox.url}/_sandbox/search`)).json()).toEqual({ lagMs: 60_000 });
    await fault({ kind: 'drop_after_commit', probability: 0.1, seed: 7 });
    await fault({ kind: 'reset_after_commit', probability: 0.1, seed: 11 });
    await fault({ kind: 'timeout', probability: 0.1, seed: 13, ms: 200 });
    const answers = await withConcurrency(
      16,
      orderIds.map((orderId) => () => charge(orderId)),
    );
    expect(answers.map((a) => a.status)).toEqual(orderIds.map(() => 202));

    // Let the faults bite until every order has been tried at least once, then stop them.
    await settleAttempted(orderIds);
    expect(service.sandbox.requests().some((r) => r.fault)).toBe(true);
    await fetch(`${service.sandbox.url}/_sandbox/faults`, { method: 'DELETE' });

    const states = await settle(orderIds, 120_000);
    for (const { orderId, state } of states) {
      const succeeded = service.sandbox.charges({ orderId }).filter(isSucceededCharge);
      expect(succeeded.length).toBeLessThanOrEqual(1);
      // Recorded as the provider reports it: paid with its one succeeded intent, otherwise none.
      if (state.status === 'paid') expect(succeeded.map((i) => i.id)).toEqual([state.paymentIntentId]);
      else expect(succeeded).toEqual([]);
      if (state.status === 'needs_review') expect(state.consecutiveUnknown).toBeGreaterThanOrEqual(5);
    }
    expect(states.filter(({ state }) => state.status === 'paid').length).toBeGreaterThanOrEqual(55);
    expect(states.some(({ state }) => state.recovered)).toBe(true);
  });

  it('stops after five consecutive unknown outcomes and asks for review', async () => {
    const orderId = `five-${randomUUID()}`;
    // The provider stores its 500 under our key and replays it: every verified retry stays unknown.
    await fault({ kind: 'error_500', orderId, times: 1 });
    expect((await charge(orderId)).status).toBe(202);
    const [{ state }] = await settle([orderId], 120_000);
    expect(state).toMatchObject({ status: 'needs_review', consecutiveUnknown: 5 });
    const types = (await service.runtime.eventStore.readStream(`order-${orderId}`)).map((e) => e.type);
    expect(types.filter((t) => t === 'ChargeOutcomeUnknown')).toHaveLength(5);
    expect(types.at(-1)).toBe('ChargeNeedsReview');
    expect(service.sandbox.charges({ orderId }).filter(isSucceededCharge)).toHaveLength(0);
  });
});

async function settleAttempted(orderIds: string[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const attempted = new Set(
      service.sandbox
        .requests()
        .filter((r) => r.method === 'POST')
        .map((r) => r.orderId),
    );
    if (orderIds.every((id) => attempted.has(id))) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('not every order reached the provider within 60 s');
}
