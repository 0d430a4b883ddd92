import type { RecordedEvent } from '../../src/event-store/event-store.port';
import { foldReadModel } from '../../src/subscriptions/read-models/read-model';
import { orderPaymentIdsReadModel } from './order-payment-ids.projector';

let revision = 0;
const event = (type: string, data: Record<string, unknown>, orderId = '9'): RecordedEvent => ({
  id: `00000000-0000-4000-8000-0000000000${String(revision).padStart(2, '0')}`,
  stream: `order-${orderId}`,
  revision: revision++,
  position: `1/${revision}` as RecordedEvent['position'],
  type,
  data: { orderId, ...data },
  metadata: { correlationId: 'c', causationId: 'c', actor: { role: 'worker', tokenId: 'w' }, recordedAt: '2026-02-01T10:00:00.000Z' },
  created: new Date('2026-02-01T10:00:00.000Z'),
});

const namedIds = (events: RecordedEvent[]) =>
  [...foldReadModel(orderPaymentIdsReadModel, events).values()].map((row) => [row.paymentId, row.orderId, row.namedBy]);

describe('order_payment_ids projector', () => {
  it('names the payment a review and a processing answer carry in their own field, whatever their texts say', () => {
    const review = event('ChargeNeedsReview', { reason: 'a payment taken while the order waits for review', paymentIntentId: 'pi_R' });
    const processing = event('ChargeOutcomeUnknown', {
      attempt: 1,
      error: 'pending',
      providerStatus: 'processing',
      paymentIntentId: 'pi_P',
    });
    expect(namedIds([review, processing])).toEqual([
      ['pi_R', '9', 'ChargeNeedsReview'],
      ['pi_P', '9', 'ChargeOutcomeUnknown'],
    ]);
  });

  it('names the intent and the charge of a success, and the intent of a declined earlier request', () => {
    const declined = event('ChargeFailed', {
      attempt: 1,
      declineCode: 'generic_decline',
      reason: 'Your card was declined.',
      paymentIntentId: 'pi_A',
    });
    const paid = event('ChargeSucceeded', {
      paymentIntentId: 'pi_B',
      providerChargeId: 'ch_B',
      amount: 500,
      currency: 'EUR',
      recovered: false,
    });
    expect(namedIds([declined, paid])).toEqual([
      ['pi_A', '9', 'ChargeFailed'],
      ['pi_B', '9', 'ChargeSucceeded'],
      ['ch_B', '9', 'ChargeSucceeded'],
    ]);
  });

  it('names every payment a review reason lists, once each, and a pending intent an unknown outcome names', () => {
    const pending = event('ChargeOutcomeUnknown', { attempt: 1, error: 'pending: payment intent pi_P is processing at the provider' });
    const review = event('ChargeNeedsReview', { reason: 'provider holds 2 succeeded payments for one order: pi_P, pi_Q' });
    expect(namedIds([pending, review])).toEqual([
      ['pi_P', '9', 'ChargeOutcomeUnknown'],
      ['pi_Q', '9', 'ChargeNeedsReview'],
    ]);
  });

  it('names the payment support recorded when resolving a review, but nothing from its note', () => {
    const payment = { paymentIntentId: 'pi_R', providerChargeId: 'ch_R', amount: 500, currency: 'EUR' };
    const resolved = event('ChargeReviewResolved', { actor: 'support:t', note: 'refunded pi_X', resolution: 'paid', payment });
    expect(namedIds([resolved])).toEqual([
      ['pi_R', '9', 'ChargeReviewResolved'],
      ['ch_R', '9', 'ChargeReviewResolved'],
    ]);
  });

  it('keeps the first event that named an id, and lists an id two orders name under both', () => {
    const first = event('ChargeOutcomeUnknown', { attempt: 1, error: 'pending: payment intent pi_S is processing' });
    const again = event('ChargeSucceeded', { paymentIntentId: 'pi_S', amount: 500, currency: 'EUR', recovered: true });
    const other = event('ChargeNeedsReview', { reason: 'provider reports payment pi_S for order 9 succeeded under key k' }, '10');
    expect(namedIds([first, again, other])).toEqual([
      ['pi_S', '9', 'ChargeOutcomeUnknown'],
      ['pi_S', '10', 'ChargeNeedsReview'],
    ]);
  });

  it('does not take a longer word for an id', () => {
    expect(namedIds([event('ChargeNeedsReview', { reason: 'api_key rejected; epi_x is no id' })])).toEqual([]);
  });
});
