import { randomUUID } from 'node:crypto';
import { auth, startTestApp, type TestApp } from '../../../test/harness/test-app';
import { orderStream } from '../order.events';

let harness: TestApp;
beforeAll(async () => {
  // A shop charging in two currencies, so that a change of currency is a mismatch, not bad input.
  harness = await startTestApp('request_charge', { IDEM_CURRENCIES: 'EUR,USD' });
});
afterAll(() => harness.close());

const charge = (orderId: string, body: unknown, headers: Record<string, string> = {}, query = '') =>
  harness.app.inject({
    method: 'POST',
    url: `/v1/orders/${orderId}/charge${query}`,
    headers: { ...auth('storefront'), ...headers },
    payload: body as object,
  });
const eventsOf = (orderId: string) => harness.runtime.eventStore.readStream(orderStream(orderId));
const body = { amount: 1250, currency: 'EUR', customerId: 'cus_42' };

/** The worker's first attempt, declined (what charge-order.job.ts records after request 1). */
async function declineFirstAttempt(orderId: string): Promise<void> {
  const metadata = {
    correlationId: 'c',
    causationId: 'job',
    actor: { role: 'worker', tokenId: 'w' },
    recordedAt: new Date().toISOString(),
  };
  await harness.runtime.eventStore.append(
    orderStream(orderId),
    [
      {
        id: randomUUID(),
        type: 'ChargeAttemptStarted',
        data: { orderId, attempt: 1, workerId: 'w', providerKey: `idem-order-${orderId}-r1` },
        metadata,
      },
      {
        id: randomUUID(),
        type: 'ChargeFailed',
        data: { orderId, attempt: 1, declineCode: 'generic_decline', reason: 'declined' },
        metadata,
      },
    ],
    0,
  );
}

describe('POST /v1/orders/{orderId}/charge', () => {
  it('accepts the first request with 202, the pending state and a Location', async () => {
    const orderId = `o-${randomUUID()}`;
    const response = await charge(orderId, body);
    expect(response.statusCode).toBe(202);
    expect(response.headers.location).toBe(`/v1/orders/${orderId}`);
    expect(response.headers['idempotent-replayed']).toBeUndefined();
    expect(response.json()).toMatchObject({
      orderId,
      status: 'pending',
      amount: 1250,
      currency: 'EUR',
      customerId: 'cus_42',
      attempts: 0,
      revision: 0,
    });
    const events = await eventsOf(orderId);
    expect(events.map((e) => e.type)).toEqual(['ChargeRequested']);
    expect(events[0].data).toMatchObject({ providerKey: `idem-order-${orderId}-r1`, requestNumber: 1 });
    expect(events[0].metadata).toMatchObject({ actor: { role: 'storefront' } });
  });

  describe('when the same request comes again', () => {
    it('replays the current state with Idempotent-Replayed and appends nothing', async () => {
      const orderId = `o-${randomUUID()}`;
      await charge(orderId, body);
      const again = await charge(orderId, body, { 'idempotency-key': 'another-key' });
      expect(again.statusCode).toBe(202);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json()).toMatchObject({ orderId, status: 'pending', revision: 0 });
      expect(await eventsOf(orderId)).toHaveLength(1);
    });

    it('records one ChargeRequested when 8 duplicates arrive at once', async () => {
      const orderId = `o-${randomUUID()}`;
      const responses = await Promise.all(
        Array.from({ length: 8 }, (_, i) => charge(orderId, body, i % 2 ? { 'idempotency-key': 'k1' } : {})),
      );
      expect(responses.map((r) => r.statusCode)).toEqual(Array(8).fill(202));
      expect(responses.filter((r) => r.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
      expect(await eventsOf(orderId)).toHaveLength(1);
    });
  });

  describe('when the first request was declined and a new one followed', () => {
    it("answers a retry under the first request's Idempotency-Key with that request's decline, not the new request's state", async () => {
      const orderId = `o-${randomUUID()}`;
      const first = { ...body, amount: 1002 };
      expect((await charge(orderId, first, { 'idempotency-key': 'kd1' })).statusCode).toBe(202);
      await declineFirstAttempt(orderId);
      // The customer tries again (another amount, no key): a new request.
      expect((await charge(orderId, { ...body, amount: 1003 })).statusCode).toBe(202);

      const retry = await charge(orderId, first, { 'idempotency-key': 'kd1' });

      expect(retry.statusCode).toBe(200);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.json()).toMatchObject({ orderId, status: 'failed', amount: 1002, revision: 2 });
      expect(await eventsOf(orderId)).toHaveLength(4);
    });
  });

  describe('when a duplicate came under its own Idempotency-Key and the charge was then declined', () => {
    it("answers a retry under the duplicate's key with the decline it was part of, and starts nothing", async () => {
      const orderId = `o-${randomUUID()}`;
      expect((await charge(orderId, body, { 'idempotency-key': 'ka' })).statusCode).toBe(202);
      const duplicate = await charge(orderId, body, { 'idempotency-key': 'kb' });
      expect(duplicate.headers['idempotent-replayed']).toBe('true');
      await declineFirstAttempt(orderId);

      const retry = await charge(orderId, body, { 'idempotency-key': 'kb' });

      expect(retry.statusCode).toBe(200);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.json()).toMatchObject({ orderId, status: 'failed', revision: 2 });
      expect((await eventsOf(orderId)).map((e) => e.type)).toEqual(['ChargeRequested', 'ChargeAttemptStarted', 'ChargeFailed']);
    });

    it("answers a retry under the duplicate's key with that decline after a new request followed it", async () => {
      const orderId = `o-${randomUUID()}`;
      await charge(orderId, body, { 'idempotency-key': 'ka' });
      await charge(orderId, body, { 'idempotency-key': 'kb' });
      await declineFirstAttempt(orderId);
      expect((await charge(orderId, body, { 'idempotency-key': 'kc' })).statusCode).toBe(202);

      const retry = await charge(orderId, body, { 'idempotency-key': 'kb' });

      expect(retry.statusCode).toBe(200);
      expect(retry.json()).toMatchObject({ orderId, status: 'failed', revision: 2 });
      expect(await eventsOf(orderId)).toHaveLength(4);
    });

    it("refuses the duplicate's key with another body after the decline, as the first key's would be", async () => {
      const orderId = `o-${randomUUID()}`;
      await charge(orderId, body, { 'idempotency-key': 'ka' });
      await charge(orderId, body, { 'idempotency-key': 'kb' });
      await declineFirstAttempt(orderId);

      const reused = await charge(orderId, { ...body, amount: 1300 }, { 'idempotency-key': 'kb' });

      expect(reused.statusCode).toBe(422);
      expect(reused.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY.REUSED' });
      expect(await eventsOf(orderId)).toHaveLength(3);
    });

    it('starts a new charge for the same body under a key never used on the order (a new request, DESIGN §4)', async () => {
      const orderId = `o-${randomUUID()}`;
      await charge(orderId, body, { 'idempotency-key': 'ka' });
      await charge(orderId, body, { 'idempotency-key': 'kb' });
      await declineFirstAttempt(orderId);

      const fresh = await charge(orderId, body, { 'idempotency-key': 'kc' });

      expect(fresh.statusCode).toBe(202);
      expect(fresh.headers['idempotent-replayed']).toBeUndefined();
      const events = await eventsOf(orderId);
      expect(events.map((e) => e.type)).toEqual(['ChargeRequested', 'ChargeAttemptStarted', 'ChargeFailed', 'ChargeRequested']);
      expect(events[3].data).toMatchObject({ idempotencyKey: 'kc', requestNumber: 2 });
    });
  });

  describe('when a request contradicts the recorded charge', () => {
    it.each([
      ['amount', { amount: 1300 }],
      ['currency', { currency: 'USD' }],
      ['customer', { customerId: 'cus_other' }],
    ])('refuses another %s with 422 ORDER.CHARGE_MISMATCH and writes nothing', async (_label, change) => {
      const orderId = `o-${randomUUID()}`;
      await charge(orderId, body);
      const response = await charge(orderId, { ...body, ...change });
      expect(response.statusCode).toBe(422);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.json()).toMatchObject({ code: 'ORDER.CHARGE_MISMATCH', status: 422 });
      expect(await eventsOf(orderId)).toHaveLength(1);
    });

    it('refuses an Idempotency-Key reused with another body with 422', async () => {
      const orderId = `o-${randomUUID()}`;
      await charge(orderId, body, { 'idempotency-key': 'key-1' });
      const response = await charge(orderId, { ...body, amount: 99 }, { 'idempotency-key': 'key-1' });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY.REUSED' });
      expect(await eventsOf(orderId)).toHaveLength(1);
    });

    it('lets only one of two different concurrent requests in; the other gets 422', async () => {
      const orderId = `o-${randomUUID()}`;
      const [a, b] = await Promise.all([charge(orderId, body), charge(orderId, { ...body, amount: 999 })]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([202, 422]);
      expect(await eventsOf(orderId)).toHaveLength(1);
    });
  });

  describe('?waitMs=', () => {
    it('waits at most that long for a settled state, and without one still answers 202 with what it has', async () => {
      const orderId = `o-${randomUUID()}`;
      const started = Date.now();
      const response = await charge(orderId, body, {}, '?waitMs=300');
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      expect(response.statusCode).toBe(202);
      expect(response.json()).toMatchObject({ status: 'pending' });
    });
  });
});

describe('GET /v1/orders/{orderId}', () => {
  it('shows the state to storefront, support and auditor; 404 for an unknown order', async () => {
    const orderId = `o-${randomUUID()}`;
    await charge(orderId, body);
    for (const role of ['storefront', 'support', 'auditor'] as const) {
      const response = await harness.app.inject({ method: 'GET', url: `/v1/orders/${orderId}`, headers: auth(role) });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ orderId, status: 'pending', revision: 0 });
    }
    const missing = await harness.app.inject({ method: 'GET', url: `/v1/orders/nope-${randomUUID()}`, headers: auth('support') });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'ORDER.NOT_FOUND' });
  });

  it('lists the stream to support and auditor only', async () => {
    const orderId = `o-${randomUUID()}`;
    await charge(orderId, body);
    const events = await harness.app.inject({ method: 'GET', url: `/v1/orders/${orderId}/events`, headers: auth('auditor') });
    expect(events.statusCode).toBe(200);
    expect(events.json().events).toEqual([
      expect.objectContaining({
        revision: 0,
        type: 'ChargeRequested',
        position: expect.stringMatching(/^\d+\/\d+$/),
        metadata: expect.objectContaining({ correlationId: expect.any(String) }),
      }),
    ]);
    const storefront = await harness.app.inject({ method: 'GET', url: `/v1/orders/${orderId}/events`, headers: auth('storefront') });
    expect(storefront.statusCode).toBe(403);
  });
});
