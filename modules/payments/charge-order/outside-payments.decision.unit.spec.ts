import { initialOrderState, type OrderState } from '../order.state';
import { decideNextStep } from './charge-order.decision';
import type { OutsidePayment } from './outside-payments.decision';

const now = new Date('2026-12-02T20:00:00.000Z');
const LEASE_MS = 60_000;
const requested = (overrides: Partial<OrderState> = {}): OrderState => ({
  ...initialOrderState(),
  exists: true,
  orderId: 'o6',
  status: 'pending',
  amount: 1250,
  currency: 'EUR',
  customerId: 'c6',
  providerKey: 'idem-order-o6-r1',
  requestNumber: 1,
  ...overrides,
});
const outside = (paymentIntentId: string, overrides: Partial<OutsidePayment> = {}): OutsidePayment => ({
  paymentIntentId,
  amount: 1250,
  currency: 'EUR',
  receivedAt: '2026-12-02T19:58:00.000Z',
  ...overrides,
});

describe('decideNextStep with payments made outside Idem before the order existed', () => {
  describe('when a request has no attempt yet and one such payment is remembered', () => {
    it('sends the order to review naming the payment, instead of a first attempt', () => {
      const step = decideNextStep(requested(), now, LEASE_MS, [outside('pi_out')]);

      expect(step).toEqual({
        kind: 'review_outside_payments',
        events: [{ type: 'ChargeNeedsReview', data: { orderId: 'o6', paymentIntentId: 'pi_out', reason: expect.any(String) } }],
      });
    });

    it('gives support a reason that names the payment, its amount and what to do', () => {
      const step = decideNextStep(requested(), now, LEASE_MS, [outside('pi_out')]);

      expect(step.kind === 'review_outside_payments' && step.events[0].data.reason).toBe(
        'provider reported payment pi_out of 1250 EUR in minor units for this order as succeeded at 2026-12-02T19:58:00.000Z, ' +
          'before Idem knew the order (a charge made outside Idem), so Idem did not charge the customer again: ' +
          'if it pays this order, resolve as paid to record it',
      );
    });

    it('leaves the amount out of the reason when the delivery did not carry one', () => {
      const step = decideNextStep(requested(), now, LEASE_MS, [outside('pi_out', { amount: undefined, currency: undefined })]);

      expect(step.kind === 'review_outside_payments' && step.events[0].data.reason).toMatch(
        /^provider reported payment pi_out for this order/,
      );
    });
  });

  describe('when several are remembered', () => {
    it('names each one in a review of its own, so every one is checked before a resolution', () => {
      const step = decideNextStep(requested(), now, LEASE_MS, [outside('pi_a'), outside('pi_b')]);

      expect(step.kind === 'review_outside_payments' && step.events.map((event) => event.data.paymentIntentId)).toEqual(['pi_a', 'pi_b']);
    });
  });

  describe("when the order's history already names the payment", () => {
    it('charges a later request: a person decided about that payment already', () => {
      const state = requested({ requestNumber: 2, providerKey: 'idem-order-o6-r2', namedPaymentIntentIds: ['pi_out'] });

      expect(decideNextStep(state, now, LEASE_MS, [outside('pi_out')])).toEqual({ kind: 'attempt', attempt: 1 });
    });

    it('still stops for another payment it does not name', () => {
      const state = requested({ namedPaymentIntentIds: ['pi_out'] });

      expect(decideNextStep(state, now, LEASE_MS, [outside('pi_out'), outside('pi_new')])).toMatchObject({
        kind: 'review_outside_payments',
        events: [{ data: { paymentIntentId: 'pi_new' } }],
      });
    });
  });

  describe('when nothing is remembered for the order', () => {
    it('makes the first attempt', () => {
      expect(decideNextStep(requested(), now, LEASE_MS, [])).toEqual({ kind: 'attempt', attempt: 1 });
    });
  });

  describe('when the order is already past its first attempt', () => {
    it('leaves it to the late-webhook path and the verification it is in (nothing new here)', () => {
      const state = requested({ status: 'processing', attempts: 1, lastAttemptAt: now.toISOString() });

      expect(decideNextStep(state, now, LEASE_MS, [outside('pi_out')])).toEqual({ kind: 'leave_to_other_worker' });
    });
  });
});
