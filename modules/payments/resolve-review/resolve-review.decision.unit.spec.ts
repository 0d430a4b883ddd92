import { deciderSpec } from '../../../test/harness/decider-spec';
import type { OrderEvent } from '../order.events';
import type { ProviderCheck } from './provider-check';
import { orderCommands } from '../order.commands';
import { decideResolveReview, type ResolveReview } from './resolve-review.decision';

const spec = deciderSpec(orderCommands, decideResolveReview);
const orderId = '481';
const requested: OrderEvent = {
  type: 'ChargeRequested',
  data: {
    orderId,
    amount: 4200,
    currency: 'EUR',
    customerId: 'c1',
    requestFingerprint: 'f',
    providerKey: 'idem-order-481-r1',
    requestNumber: 1,
  },
};
const started: OrderEvent = {
  type: 'ChargeAttemptStarted',
  data: { orderId, attempt: 1, workerId: 'w', providerKey: 'idem-order-481-r1' },
};
const unknown: OrderEvent = { type: 'ChargeOutcomeUnknown', data: { orderId, attempt: 1, error: 'timeout' } };
const inReview: OrderEvent[] = [
  requested,
  started,
  unknown,
  { type: 'ChargeNeedsReview', data: { orderId, reason: 'contradictory provider data' } },
];

const nothingHeld: ProviderCheck = { succeeded: [], pending: [], unanswered: [] };
const resolve = (resolution: 'paid' | 'failed', providerCheck?: ProviderCheck): ResolveReview => ({
  orderId,
  actor: 'support:t1',
  note: 'checked the dashboard',
  resolution,
  requestId: 'req-9',
  ...(providerCheck ? { providerCheck } : {}),
});
const resolved = (resolution: 'paid' | 'failed'): OrderEvent => ({
  type: 'ChargeReviewResolved',
  data: { orderId, actor: 'support:t1', note: 'checked the dashboard', resolution },
});

describe('ResolveReview', () => {
  describe('when the order waits for review', () => {
    it('records a resolution as paid with the actor and the note', () => {
      spec
        .given(inReview)
        .when(resolve('paid'))
        .then([resolved('paid')]);
    });

    it('records a resolution as failed once the provider holds nothing under any key', () => {
      spec
        .given(inReview)
        .when(resolve('failed', nothingHeld))
        .then([resolved('failed')]);
    });

    it('names the step with the request, the attempt, the unknowns in a row and the request id', () => {
      const [decided] = spec.given(inReview).when(resolve('paid')).decided();
      expect(decided.key).toBe('review-resolved/r1/1/1/req-9');
    });
  });

  describe('when it is to be resolved as failed but money may have moved', () => {
    it('refuses while the provider holds a succeeded payment', () => {
      spec
        .given(inReview)
        .when(resolve('failed', { succeeded: ['pi_1'], pending: ['pi_2'], unanswered: [] }))
        .thenRefuses('ORDER.PROVIDER_HOLDS_CHARGE', {
          kind: 'unprocessable',
          message: 'The provider holds a succeeded payment for order 481 (pi_1, pi_2): it cannot be resolved as failed',
          details: { succeeded: ['pi_1'], pending: ['pi_2'] },
        });
    });

    it('refuses while the provider holds a succeeded payment alone', () => {
      spec
        .given(inReview)
        .when(resolve('failed', { succeeded: ['pi_1'], pending: [], unanswered: [] }))
        .thenRefuses('ORDER.PROVIDER_HOLDS_CHARGE', { details: { succeeded: ['pi_1'], pending: [] } });
    });

    it('refuses while a payment is still pending', () => {
      spec
        .given(inReview)
        .when(resolve('failed', { succeeded: [], pending: ['pi_2'], unanswered: [] }))
        .thenRefuses('ORDER.PROVIDER_HOLDS_CHARGE', {
          message: 'The provider holds a pending payment for order 481 (pi_2): it cannot be resolved as failed',
        });
    });

    it('refuses (try later) while a key could not be answered', () => {
      spec
        .given(inReview)
        .when(resolve('failed', { succeeded: [], pending: [], unanswered: ['idem-order-481-r1', 'idem-order-481-r2'] }))
        .thenRefuses('ORDER.PROVIDER_UNVERIFIED', {
          kind: 'unavailable',
          message: 'The provider could not confirm the outcome under idem-order-481-r1, idem-order-481-r2; try again later',
          details: { keys: ['idem-order-481-r1', 'idem-order-481-r2'] },
        });
    });

    it('asks to try again when no provider check came with the command (the order entered review meanwhile)', () => {
      spec.given(inReview).when(resolve('failed')).thenRefuses('ORDER.PROVIDER_CHECK_STALE', {
        kind: 'conflict',
        message: 'Order 481 changed while it was being checked; try again',
      });
    });
  });

  describe('when the order does not wait for review', () => {
    it.each<[string, OrderEvent[]]>([
      ['pending', [requested]],
      ['processing', [requested, started]],
      ['unknown', [requested, started, unknown]],
      ['paid', [...inReview, resolved('paid')]],
    ])('refuses a %s order with ORDER.NOT_IN_REVIEW', (status, history) => {
      spec
        .given(history)
        .when(resolve('paid'))
        .thenRefuses('ORDER.NOT_IN_REVIEW', {
          kind: 'unprocessable',
          message: `Order 481 is ${status}, not waiting for review`,
          details: { orderStatus: status },
        });
    });

    it('refuses an order that was never requested with ORDER.NOT_FOUND', () => {
      spec
        .given([])
        .when(resolve('paid'))
        .thenRefuses('ORDER.NOT_FOUND', { kind: 'not_found', message: 'No charge was ever requested for order 481' });
    });
  });
});
