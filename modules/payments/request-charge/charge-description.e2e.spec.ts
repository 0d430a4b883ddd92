/**
 * The description is part of what a charge is (it goes to the provider and onto the customer's
 * statement): a second request that differs only there contradicts the first, it is not a replay.
 */
import { randomUUID } from 'node:crypto';
import { auth, startTestApp, type TestApp } from '../../../test/harness/test-app';
import { orderStream } from '../order.events';

let harness: TestApp;
beforeAll(async () => {
  harness = await startTestApp('charge_description');
});
afterAll(() => harness.close());

const charge = (orderId: string, body: object) =>
  harness.app.inject({ method: 'POST', url: `/v1/orders/${orderId}/charge`, headers: auth('storefront'), payload: body });
const eventsOf = (orderId: string) => harness.runtime.eventStore.readStream(orderStream(orderId));
const body = { amount: 1250, currency: 'EUR', customerId: 'cus_42' };

describe('POST /v1/orders/{orderId}/charge', () => {
  describe('when a second request differs from the recorded charge only in its description', () => {
    it.each([
      ['another description', { ...body, description: 'Order 481: two books' }, { ...body, description: 'Order 481: three books' }],
      ['a description where there was none', body, { ...body, description: 'Order 481: two books' }],
      ['no description where there was one', { ...body, description: 'Order 481: two books' }, body],
    ])('refuses %s with 422 ORDER.CHARGE_MISMATCH, never as a replay, and writes nothing', async (_label, first, second) => {
      const orderId = `o-${randomUUID()}`;
      expect((await charge(orderId, first)).statusCode).toBe(202);
      const response = await charge(orderId, second);
      expect(response.statusCode).toBe(422);
      expect(response.headers['idempotent-replayed']).toBeUndefined();
      const recordedDescription = (first as { description?: string }).description ?? null;
      expect(response.json()).toMatchObject({
        code: 'ORDER.CHARGE_MISMATCH',
        recorded: { amount: 1250, currency: 'EUR', customerId: 'cus_42', description: recordedDescription },
      });
      const events = await eventsOf(orderId);
      expect(events).toHaveLength(1);
      expect(events[0].data).toEqual(expect.objectContaining({ amount: 1250 }));
      expect((events[0].data as { description?: string }).description).toBe((first as { description?: string }).description);
    });
  });

  describe('when the same description comes again', () => {
    it('replays the recorded charge', async () => {
      const orderId = `o-${randomUUID()}`;
      const withDescription = { ...body, description: 'Order 481: two books' };
      await charge(orderId, withDescription);
      const again = await charge(orderId, withDescription);
      expect(again.statusCode).toBe(202);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(await eventsOf(orderId)).toHaveLength(1);
    });
  });

  describe('when the description is an empty string', () => {
    // Stripe refuses "" for a PaymentIntent's description on create (an empty value means "unset", and it
    // cannot be unset): 400 parameter_invalid_empty. "" is not a way to say "none"; leaving it out is.
    it('refuses it with 400 naming the field, writes nothing, and takes the same charge without it', async () => {
      const orderId = `o-${randomUUID()}`;
      const response = await charge(orderId, { ...body, description: '' });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([
        {
          field: 'description',
          message: 'description must not be empty: leave it out for a charge without one (Stripe refuses an empty description)',
        },
      ]);
      expect(await eventsOf(orderId)).toHaveLength(0);
      expect((await charge(orderId, body)).statusCode).toBe(202);
    });
  });
});
