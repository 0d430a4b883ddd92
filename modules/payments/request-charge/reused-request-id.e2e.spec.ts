/**
 * A client (or a proxy) that reuses one X-Request-Id for two different charge requests must never be
 * told the second was recorded: the request id is part of the ChargeRequested event's id, and the
 * store answers a re-append of an id it holds with the original result. Only a true retry (the same
 * facts) may be taken for one; a different body is a mismatch.
 */
import { randomUUID } from 'node:crypto';
import { auth, startTestApp, type TestApp } from '../../../test/harness/test-app';
import { orderStream } from '../order.events';

let harness: TestApp;
beforeAll(async () => {
  harness = await startTestApp('reused_request_id');
});
afterAll(() => harness.close());

const body = { amount: 1000, currency: 'EUR', customerId: 'cus_7' };
const charge = (orderId: string, amount: number, requestId: string) =>
  harness.app.inject({
    method: 'POST',
    url: `/v1/orders/${orderId}/charge`,
    headers: { ...auth('storefront'), 'x-request-id': requestId },
    payload: { ...body, amount },
  });
const recordedAmounts = async (orderId: string) =>
  (await harness.runtime.eventStore.readStream(orderStream(orderId))).filter((e) => e.type === 'ChargeRequested').map((e) => e.data.amount);

describe('POST /v1/orders/{orderId}/charge with a reused X-Request-Id', () => {
  describe('when two requests with different amounts arrive at once', () => {
    it('records one of them and refuses the other with 422 ORDER.CHARGE_MISMATCH, in each of 20 pairs', async () => {
      for (let pair = 0; pair < 20; pair++) {
        const orderId = `o-${randomUUID()}`;
        const requestId = `req-${randomUUID()}`;
        const answers = await Promise.all([charge(orderId, 1000, requestId), charge(orderId, 5000, requestId)]);

        const amounts = await recordedAmounts(orderId);
        expect(amounts).toHaveLength(1);
        const accepted = answers.filter((a) => a.statusCode === 202);
        const refused = answers.filter((a) => a.statusCode === 422);
        expect(accepted).toHaveLength(1);
        expect(accepted[0].json()).toMatchObject({ amount: amounts[0] });
        expect(refused).toHaveLength(1);
        expect(refused[0].json()).toMatchObject({ code: 'ORDER.CHARGE_MISMATCH' });
      }
    });
  });

  describe('when they come one after the other', () => {
    it('refuses the second with 422 and keeps the first amount', async () => {
      const orderId = `o-${randomUUID()}`;
      const requestId = `req-${randomUUID()}`;
      expect((await charge(orderId, 1000, requestId)).statusCode).toBe(202);
      const second = await charge(orderId, 5000, requestId);
      expect(second.statusCode).toBe(422);
      expect(second.json()).toMatchObject({ code: 'ORDER.CHARGE_MISMATCH' });
      expect(await recordedAmounts(orderId)).toEqual([1000]);
    });
  });

  describe('when the very same request is retried with its request id', () => {
    it('answers it as a replay of the one recorded charge', async () => {
      const orderId = `o-${randomUUID()}`;
      const requestId = `req-${randomUUID()}`;
      const answers = await Promise.all([charge(orderId, 1000, requestId), charge(orderId, 1000, requestId)]);
      expect(answers.map((a) => a.statusCode)).toEqual([202, 202]);
      expect(answers.every((a) => a.json().amount === 1000)).toBe(true);
      expect(await recordedAmounts(orderId)).toEqual([1000]);
    });
  });
});
