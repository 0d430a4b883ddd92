/**
 * GET /v1/orders/{id} reads the orders read model, and falls back to the stream when the read model
 * has no row yet or lags behind the revision the caller has seen (`?minRevision=`).
 */
import { randomUUID } from 'node:crypto';
import { WebhookDeliveries, chargeOrder } from '../../modules/payments';
import { OrderQueries } from '../../projections/orders/orders.queries';
import { auth } from '../harness/test-app';
import { startTestService, type TestService } from '../harness/test-service';

jest.setTimeout(120_000);

let service: TestService;
beforeAll(async () => {
  service = await startTestService('read_your_writes');
  service.sandbox.createCustomer({ id: 'c' });
  // Charge orders by hand in this file: the job worker must not race the assertions.
  await service.background.jobs.stop();
});
afterAll(() => service.close());

const get = async (path: string) => {
  const response = await service.app.inject({ method: 'GET', url: path, headers: auth('storefront') });
  return { status: response.statusCode, body: response.json() };
};

const charge = (orderId: string) =>
  service.app.inject({
    method: 'POST',
    url: `/v1/orders/${orderId}/charge`,
    headers: auth('storefront'),
    payload: { amount: 1500, currency: 'EUR', customerId: 'c' },
  });

async function projected(orderId: string, revision: number): Promise<void> {
  const orders = new OrderQueries(service.background.readModels.dataSource);
  const deadline = Date.now() + 30_000;
  while ((await orders.findOrder(orderId))?.revision !== revision) {
    if (Date.now() > deadline) throw new Error(`orders read model never reached revision ${revision} for ${orderId}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('GET /v1/orders/{orderId}', () => {
  it('serves the read model, and the stream when the caller has seen a newer revision', async () => {
    const orderId = `ryw-${randomUUID()}`;
    await charge(orderId);
    await projected(orderId, 0);
    await service.background.projections.stop();
    await chargeOrder(
      {
        store: service.runtime.eventStore,
        gateway: service.gateway,
        workerId: 'by-hand',
        outsidePayments: new WebhookDeliveries(service.runtime.pool),
      },
      orderId,
    );

    const fromReadModel = await get(`/v1/orders/${orderId}`);
    expect(fromReadModel).toMatchObject({ status: 200, body: { status: 'pending', revision: 0 } });
    const readYourWrites = await get(`/v1/orders/${orderId}?minRevision=2`);
    expect(readYourWrites).toMatchObject({ status: 200, body: { status: 'paid', revision: 2, attempts: 1 } });
  });

  it('answers from the stream when the read model has no row yet', async () => {
    const orderId = `ryw-${randomUUID()}`;
    const posted = await charge(orderId);
    expect(posted.statusCode).toBe(202);
    expect(await get(`/v1/orders/${orderId}`)).toMatchObject({ status: 200, body: { orderId, status: 'pending', revision: 0 } });
    expect((await get(`/v1/orders/${orderId}?minRevision=x`)).status).toBe(400);
  });

  it('answers at once for a revision beyond the stream, with the revision the stream holds (nothing waits for it)', async () => {
    const orderId = `ryw-${randomUUID()}`;
    await charge(orderId);
    expect(await get(`/v1/orders/${orderId}?minRevision=999`)).toMatchObject({ status: 200, body: { status: 'pending', revision: 0 } });
  });
});
