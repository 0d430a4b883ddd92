/**
 * Cases support is asked about, made on a test app with the sandbox provider: an order whose charge
 * answer was lost (unknown), one in review (the provider holds contradictory data), a paid one. The
 * charge job is run here, by the test, so each case is reached in a known number of steps.
 */
import { randomUUID } from 'node:crypto';
import { ChargeOutcomeStillUnknown, WebhookDeliveries, chargeOrder, loadOrder, type ChargeOrderDeps } from '../../modules/payments';
import { DEFAULT_SEARCH_LAG_MS } from '../../modules/sandbox';
import { readModelsOf } from '../../src/features/feature';
import { startProjections } from '../../src/subscriptions/start-projections';
import { auth, startTestApp, type TestApp } from './test-app';

export interface SupportCases {
  harness: TestApp;
  /** The api's address on a real port, for a browser. */
  url: string;
  deps: ChargeOrderDeps;
  close(): Promise<void>;
}

/**
 * The api on a real port with its read models kept up to date, but no job queue: the test runs each
 * charge itself, and no worker races it to a different outcome. `env` as for startTestApp.
 */
export async function startSupportCases(label: string, env: Record<string, string> = {}): Promise<SupportCases> {
  const harness = await startTestApp(label, env);
  const { eventStore: store, pool } = harness.runtime;
  const projections = await startProjections({ store, pool, readModels: readModelsOf(harness.features), reactors: [] });
  await harness.app.listen({ port: 0, host: '127.0.0.1' });
  const url = (await harness.app.getUrl()).replace('[::1]', '127.0.0.1');
  return {
    harness,
    url,
    deps: { store, gateway: harness.gateway, workerId: 'w', outsidePayments: new WebhookDeliveries(pool) },
    async close() {
      await projections.stop();
      await harness.close();
    },
  };
}

export interface ChargeRequest {
  orderId?: string;
  customerId?: string;
  amount?: number;
  requestId?: string;
}

/**
 * Asks for a charge as the storefront does, for a customer the provider holds (made first: Stripe
 * refuses a charge for a customer it does not know); answers the order id.
 */
export async function requestCharge(harness: TestApp, request: ChargeRequest = {}): Promise<string> {
  const orderId = request.orderId ?? `o-${randomUUID()}`;
  harness.sandbox.createCustomer({ id: request.customerId ?? 'c1' });
  await harness.app.inject({
    method: 'POST',
    url: `/v1/orders/${orderId}/charge`,
    headers: { ...auth('storefront'), ...(request.requestId ? { 'x-request-id': request.requestId } : {}) },
    payload: { amount: request.amount ?? 4200, currency: 'EUR', customerId: request.customerId ?? 'c1' },
  });
  return orderId;
}

export async function paidOrder(cases: Pick<SupportCases, 'harness' | 'deps'>, request: ChargeRequest = {}): Promise<string> {
  const orderId = await requestCharge(cases.harness, request);
  expect(await chargeOrder(cases.deps, orderId)).toBe('settled');
  expect((await loadOrder(cases.deps.store, orderId)).state.status).toBe('paid');
  return orderId;
}

/** The provider charged the card, but both answers (stripe-node retries once) were lost. */
export async function orderInUnknownState(cases: Pick<SupportCases, 'harness' | 'deps'>, request: ChargeRequest = {}): Promise<string> {
  const orderId = await requestCharge(cases.harness, request);
  await fetch(`${cases.harness.sandbox.url}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'drop_after_commit', orderId, times: 2 }),
  });
  await expect(chargeOrder(cases.deps, orderId)).rejects.toBeInstanceOf(ChargeOutcomeStillUnknown);
  return orderId;
}

/**
 * A second charge elsewhere for this order makes the provider's data contradictory → needs review
 * (seen by search a day later, once the key may have expired and search is long consistent).
 */
export async function orderInReview(cases: Pick<SupportCases, 'harness' | 'deps'>, request: ChargeRequest = {}): Promise<string> {
  const { harness, deps } = cases;
  const orderId = await orderInUnknownState(cases, request);
  harness.sandbox.recordOutsideCharge({ orderId, amount: request.amount ?? 4200, currency: 'EUR', customer: request.customerId ?? 'c1' });
  harness.sandbox.setSearchLag(0);
  try {
    await chargeOrder({ ...deps, now: () => new Date(Date.now() + 24 * 3600_000) }, orderId);
  } finally {
    harness.sandbox.setSearchLag(DEFAULT_SEARCH_LAG_MS);
  }
  expect((await loadOrder(deps.store, orderId)).state.status).toBe('needs_review');
  return orderId;
}

/** Five charge runs each answered 500 by a provider that stored nothing at the key → needs review, nothing charged. */
export async function orderInReviewNothingCharged(
  cases: Pick<SupportCases, 'harness' | 'deps'>,
  request: ChargeRequest = {},
): Promise<string> {
  const orderId = await requestCharge(cases.harness, request);
  await fetch(`${cases.harness.sandbox.url}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'error_500', orderId, times: 10, stored: false }),
  });
  for (let run = 1; run < 5; run++) await expect(chargeOrder(cases.deps, orderId)).rejects.toBeInstanceOf(ChargeOutcomeStillUnknown);
  expect(await chargeOrder(cases.deps, orderId)).toBe('settled');
  expect((await loadOrder(cases.deps.store, orderId)).state.status).toBe('needs_review');
  return orderId;
}
