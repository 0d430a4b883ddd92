/**
 * What the charge route says about an amount: below the provider's minimum charge for its currency it is refused
 * at the door (Stripe would refuse it with `amount_too_small`), as is one Stripe refuses for its granularity (a
 * fraction of a króna, a three-decimal amount not ending in 0) or its size (eight digits, twelve in IDR), and a bad
 * amount gets one message, not three.
 */
import { randomUUID } from 'node:crypto';
import { auth, startTestApp, type TestApp } from '../../../test/harness/test-app';
import { orderStream } from '../order.events';

let harness: TestApp;
beforeAll(async () => {
  harness = await startTestApp('charge_amount', { IDEM_CURRENCIES: 'EUR,JPY,GBP,ISK,KWD,IDR' });
});
afterAll(() => harness.close());

const charge = (orderId: string, body: object) =>
  harness.app.inject({ method: 'POST', url: `/v1/orders/${orderId}/charge`, headers: auth('storefront'), payload: body });
const order = (orderId: string) => harness.app.inject({ method: 'GET', url: `/v1/orders/${orderId}`, headers: auth('support') });
const body = { currency: 'EUR', customerId: 'cus_42' };

describe('POST /v1/orders/{orderId}/charge', () => {
  describe("when the amount is below Stripe's minimum charge for its currency", () => {
    it.each([
      ['1 euro cent', { ...body, amount: 1 }, 'amount must be at least 50 (€0.50), the smallest charge Stripe accepts in EUR'],
      ['49 euro cents', { ...body, amount: 49 }, 'amount must be at least 50 (€0.50), the smallest charge Stripe accepts in EUR'],
      ['zero', { ...body, amount: 0 }, 'amount must be at least 50 (€0.50), the smallest charge Stripe accepts in EUR'],
      [
        '¥49 (zero-decimal: in yen)',
        { ...body, currency: 'JPY', amount: 49 },
        'amount must be at least 50 (¥50), the smallest charge Stripe accepts in JPY',
      ],
      [
        '29 pence',
        { ...body, currency: 'GBP', amount: 29 },
        'amount must be at least 30 (£0.30), the smallest charge Stripe accepts in GBP',
      ],
    ])('refuses %s with 400 naming the minimum, and writes nothing', async (_label, request, message) => {
      const orderId = `o-${randomUUID()}`;
      const response = await charge(orderId, request);

      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.json()).toMatchObject({ code: 'REQUEST.INVALID', errors: [{ field: 'amount', message }] });
      expect((await order(orderId)).statusCode).toBe(404);
      expect(await harness.runtime.eventStore.readStream(orderStream(orderId))).toEqual([]);
    });
  });

  describe('when the amount is exactly the minimum, or the currency has no minimum in the table', () => {
    it.each([
      ['€0.50', { ...body, amount: 50 }],
      ['¥50', { ...body, currency: 'JPY', amount: 50 }],
      ['1 króna (100: ISK is outside the table, two-decimal in the API)', { ...body, currency: 'ISK', amount: 100 }],
      ['1.000 KWD (three-decimal, last digit 0)', { ...body, currency: 'KWD', amount: 1000 }],
      ['€999,999.99 (eight digits, the most Stripe takes outside IDR)', { ...body, amount: 99_999_999 }],
      ['Rp 5,000,000.00 (ten digits: IDR takes twelve)', { ...body, currency: 'IDR', amount: 500_000_000 }],
      ['Rp 9,999,999,999.99 (twelve digits)', { ...body, currency: 'IDR', amount: 999_999_999_999 }],
    ])('accepts %s', async (_label, request) => {
      const response = await charge(`o-${randomUUID()}`, request);

      expect(response.statusCode).toBe(202);
      expect(response.json()).toMatchObject({ amount: request.amount, currency: request.currency });
    });
  });

  describe('when Stripe would refuse the amount for its granularity', () => {
    it.each([
      [
        '1.50 ISK (a fraction of a króna)',
        { ...body, currency: 'ISK', amount: 150 },
        'amount must be a multiple of 100 in ISK (whole krónur)',
      ],
      ['0.01 ISK', { ...body, currency: 'ISK', amount: 1 }, 'amount must be a multiple of 100 in ISK (whole krónur)'],
      ['1.001 KWD (last of three decimals not 0)', { ...body, currency: 'KWD', amount: 1001 }, 'amount must be a multiple of 10 in KWD'],
    ])('refuses %s with 400 naming the step, and writes nothing', async (_label, request, message) => {
      const orderId = `o-${randomUUID()}`;
      const response = await charge(orderId, request);

      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'REQUEST.INVALID' });
      expect(response.json().errors).toEqual([{ field: 'amount', message: expect.stringContaining(message) }]);
      expect(await harness.runtime.eventStore.readStream(orderStream(orderId))).toEqual([]);
    });
  });

  describe("when the amount is over Stripe's maximum for its currency", () => {
    it.each([
      ['€1,000,000.00 (nine digits)', { ...body, amount: 100_000_000 }, 'amount must be at most 99999999 minor units in EUR'],
      [
        'Rp 10,000,000,000.00 (thirteen digits)',
        { ...body, currency: 'IDR', amount: 1_000_000_000_000 },
        'amount must be at most 999999999999 minor units in IDR',
      ],
    ])('refuses %s with 400 naming the maximum, and writes nothing', async (_label, request, message) => {
      const orderId = `o-${randomUUID()}`;
      const response = await charge(orderId, request);

      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([{ field: 'amount', message: `${message}, the largest charge Stripe accepts` }]);
      expect(await harness.runtime.eventStore.readStream(orderStream(orderId))).toEqual([]);
    });
  });

  describe('when a field is bad', () => {
    it.each([
      ['an amount as a string', { ...body, amount: '1250' }, 'amount', /^amount must be an integer .*minor unit/],
      ['no amount', body, 'amount', /^amount is required$/],
      ['no customerId', { amount: 1250, currency: 'EUR' }, 'customerId', /^customerId is required$/],
    ])('answers %s with one message that says what is wrong', async (_label, request, field, message) => {
      const response = await charge(`o-${randomUUID()}`, request);

      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'REQUEST.INVALID' });
      expect(response.json().errors).toEqual([{ field, message: expect.stringMatching(message) }]);
    });
  });
});
