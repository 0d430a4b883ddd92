/**
 * 500 orders × 8 concurrent duplicate requests over real HTTP, charged by the real worker through the
 * job queue against the sandbox: exactly one succeeded intent per order at the provider.
 */
import { randomUUID } from 'node:crypto';
import { auth } from '../harness/test-app';
import { startTestService, withConcurrency, type TestService } from '../harness/test-service';
import { isSucceededCharge } from '../../modules/sandbox';
import { waitUntil } from '../harness/wait-until';

jest.setTimeout(300_000);

let service: TestService;
beforeAll(async () => {
  service = await startTestService('exactly_once', { IDEM_WORKER_CONCURRENCY: '16' });
  service.sandbox.createCustomer({ id: 'cus_load' });
});
afterAll(() => service.close());

describe('exactly-once charges through the running service', () => {
  it('charges 500 orders exactly once under 8 concurrent duplicates each', async () => {
    const run = randomUUID().slice(0, 8);
    const orderIds = Array.from({ length: 500 }, (_, i) => `eo${run}-${i}`);
    const requests = orderIds.flatMap((orderId) =>
      Array.from({ length: 8 }, (_, copy) => async () => {
        // Copies 0–2 share one Idempotency-Key, 3–5 send none, 6–7 each send a key of their own.
        const key: Record<string, string> =
          copy <= 2 ? { 'idempotency-key': `${orderId}-k` } : copy >= 6 ? { 'idempotency-key': randomUUID() } : {};
        const response = await fetch(`${service.url}/v1/orders/${orderId}/charge`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...auth('storefront'), ...key },
          body: JSON.stringify({ amount: 2500 + (orderId.length % 7), currency: 'EUR', customerId: 'cus_load' }),
        });
        return { orderId, status: response.status, replayed: response.headers.get('idempotent-replayed') === 'true' };
      }),
    );
    // Shuffle so the duplicates of one order arrive interleaved with other orders.
    requests.sort(() => Math.random() - 0.5);
    const answers = await withConcurrency(64, requests);
    expect(answers.filter((a) => a.status !== 202 && a.status !== 200)).toEqual([]);
    expect(answers.filter((a) => !a.replayed)).toHaveLength(500);

    const paid = await waitUntil(
      async () => {
        const states = await withConcurrency(
          32,
          orderIds.map(
            (orderId) => async () =>
              (await (await fetch(`${service.url}/v1/orders/${orderId}`, { headers: auth('support') })).json()) as { status: string },
          ),
        );
        return states.filter((s) => s.status === 'paid').length;
      },
      (count) => count === 500,
      240_000,
    );
    expect(paid).toBe(500);

    const succeeded = service.sandbox
      .charges()
      .filter((intent) => isSucceededCharge(intent) && intent.metadata.order_id?.startsWith(`eo${run}-`));
    expect(succeeded).toHaveLength(500);
    expect(new Set(succeeded.map((intent) => intent.metadata.order_id)).size).toBe(500);
    const successesPerStream = await withConcurrency(
      32,
      orderIds.map(
        (orderId) => async () =>
          (await service.runtime.eventStore.readStream(`order-${orderId}`)).filter((e) => e.type === 'ChargeSucceeded').length,
      ),
    );
    expect(successesPerStream.every((count) => count === 1)).toBe(true);
  });
});
