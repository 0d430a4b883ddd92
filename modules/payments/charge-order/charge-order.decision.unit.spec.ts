import { initialOrderState, type OrderState } from '../order.state';
import type { ProviderPayment } from '../payment-gateway/payment-gateway.port';
import { decideOutcome, decideVerification } from './charge-order.decision';

const state = (overrides: Partial<OrderState> = {}): OrderState => ({
  ...initialOrderState(),
  exists: true,
  orderId: 'o1',
  status: 'unknown',
  amount: 4200,
  currency: 'EUR',
  customerId: 'cus_1',
  providerKey: 'idem-order-o1-r2',
  requestNumber: 2,
  attempts: 1,
  ...overrides,
});
const payment = (overrides: Partial<ProviderPayment>): ProviderPayment => ({ paymentIntentId: 'pi_1', status: 'succeeded', amount: 4200, currency: 'EUR', orderId: 'o1', ...overrides });

describe('decideVerification', () => {
  describe("when the only decline the provider holds is an earlier request's", () => {
    it('does not take it for this attempt: nothing is known about the current key, so a new attempt may go on', () => {
      const earlier = payment({ paymentIntentId: 'pi_old', status: 'failed', providerKey: 'idem-order-o1-r1', declineCode: 'generic_decline' });

      expect(decideVerification(state(), [earlier])).toBeUndefined();
    });
  });

  describe("when the current key's payment was declined", () => {
    it('records the decline', () => {
      const current = payment({ paymentIntentId: 'pi_new', status: 'failed', providerKey: 'idem-order-o1-r2', declineCode: 'insufficient_funds' });

      expect(decideVerification(state(), [current])).toMatchObject({ type: 'ChargeFailed', data: { declineCode: 'insufficient_funds', paymentIntentId: 'pi_new' } });
    });
  });

  describe('when a payment of the order is still pending', () => {
    it('keeps the outcome unknown rather than allowing a new attempt beside it', () => {
      expect(decideVerification(state(), [payment({ status: 'pending', providerKey: 'idem-order-o1-r2' })])).toMatchObject({ type: 'ChargeOutcomeUnknown' });
    });
  });

  describe('when the provider holds one succeeded payment', () => {
    it('records it as recovered', () => {
      expect(decideVerification(state(), [payment({ providerKey: 'idem-order-o1-r2' })])).toMatchObject({ type: 'ChargeSucceeded', data: { recovered: true } });
    });
  });
});

describe('decideOutcome', () => {
  it('sends a charge the customer must authenticate to review with the reason', () => {
    const event = decideOutcome(state(), 2, { kind: 'action_required', paymentIntentId: 'pi_1', reason: 'authentication_required: the customer must authenticate' });

    expect(event).toMatchObject({ type: 'ChargeNeedsReview', data: { reason: expect.stringContaining('authentication_required') } });
  });

  it('records a processing payment as an outcome still to be verified', () => {
    expect(decideOutcome(state(), 2, { kind: 'pending', paymentIntentId: 'pi_1', reason: 'pi_1 is processing' })).toMatchObject({ type: 'ChargeOutcomeUnknown', data: { attempt: 2 } });
  });

  it('records a replayed success as recovered and a fresh one as not', () => {
    const paid = payment({});

    expect(decideOutcome(state(), 2, { kind: 'succeeded', payment: paid, replayed: true })).toMatchObject({ type: 'ChargeSucceeded', data: { recovered: true } });
    expect(decideOutcome(state(), 2, { kind: 'succeeded', payment: paid, replayed: false })).toMatchObject({ type: 'ChargeSucceeded', data: { recovered: false } });
  });
});
