/**
 * A charge never waits behind a bulk contact import: payments' projections ride a lane of their own
 * (Feature.projectionLane), so the reactor that queues a charge's job commits while the default lane
 * (contacts, the audit chain) is stuck inside a batch. Real PostgreSQL, the real worker and job queue,
 * the sandbox provider; the default lane is held by a test-only reactor riding it.
 */
import { randomUUID } from 'node:crypto';
import { startBackground, type Background } from '../../src/bootstrap/background';
import type { Feature } from '../../src/features/feature';
import { isSucceededCharge } from '../../modules/sandbox';
import { auth, startTestApp, type TestApp } from '../harness/test-app';
import { createIsolatedTestDatabase } from '../harness/test-database';
import { heldProjection } from '../projections/held-projection';
import { waitFor } from '../projections/projection-harness';

jest.setTimeout(120_000);

const orderId = `lane-${randomUUID()}`;
// Held on the order's ChargeRequested: the default lane's shared read stops inside the very batch the
// payments lane must commit for the charge to go on.
const busy = heldProjection('test_busy_import', (event) => event.stream === `order-${orderId}`);
const busyImport: Feature = { name: 'busy-import', reactors: [busy.projection] };

let harness: TestApp;
let background: Background;
beforeAll(async () => {
  // The held batch keeps a transaction open, and with it the gap-free horizon: off the shared cluster.
  const { url } = await createIsolatedTestDatabase('charge_beside_busy_lane');
  harness = await startTestApp('charge_beside_busy_lane', { DATABASE_URL: url });
  harness.sandbox.createCustomer({ id: 'cus_lane' });
  background = await startBackground(harness.runtime, [...harness.features, busyImport], { workerId: 'test-lanes' });
  await waitFor('every projection on its shared read', async () =>
    background.projections.statuses.every((s) => s.state === 'active' && s.read === 'shared'),
  );
});
afterAll(async () => {
  busy.letGo();
  await background?.stop();
  await harness?.close();
});

const charge = (waitMs?: number) =>
  harness.app.inject({
    method: 'POST',
    url: `/v1/orders/${orderId}/charge${waitMs === undefined ? '' : `?waitMs=${waitMs}`}`,
    headers: auth('storefront'),
    payload: { amount: 1800, currency: 'EUR', customerId: 'cus_lane' },
  });

describe('POST /v1/orders/{orderId}/charge while the default projection lane is stuck in a batch', () => {
  it('still reaches paid, charged once at the provider', async () => {
    expect((await charge()).statusCode).toBe(202);
    await waitFor('the default lane held inside the batch of the ChargeRequested', async () => busy.isHeld());

    // ?waitMs= folds the order's stream. The read models could not show `paid` yet: the held transaction
    // holds back the store's gap-free horizon, for every lane, until it commits (the cost lanes keep).
    const answer = await charge(10_000);
    expect({ status: answer.statusCode, order: answer.json<{ status: string }>().status }).toEqual({ status: 200, order: 'paid' });
    expect(busy.isHeld()).toBe(true);
    expect(harness.sandbox.charges({ orderId }).filter(isSucceededCharge)).toHaveLength(1);
  });
});
