import type { RecordedEvent } from '../../src/event-store/event-store.port';
import { foldReadModel } from '../../src/subscriptions/read-models/read-model';
import { paymentLedgerReadModel } from './payment-ledger.projector';

let revision = 0;
const succeeded = (paymentIntentId: string, recovered = false): RecordedEvent => ({
  id: `00000000-0000-4000-8000-00000000000${revision}`,
  stream: 'order-9',
  revision: revision++,
  position: `1/${revision}` as RecordedEvent['position'],
  type: 'ChargeSucceeded',
  data: { orderId: '9', paymentIntentId, providerChargeId: `ch_${paymentIntentId}`, amount: 500, currency: 'EUR', recovered },
  metadata: { correlationId: 'c', causationId: 'c', actor: { role: 'worker', tokenId: 'w' }, recordedAt: '2026-02-01T10:00:00.000Z' },
  created: new Date('2026-02-01T10:00:00.000Z'),
});

const resolved = (resolution: 'paid' | 'failed', paymentIntentId?: string): RecordedEvent => ({
  ...succeeded('unused'),
  type: 'ChargeReviewResolved',
  data: {
    orderId: '9',
    actor: 'support:t',
    note: 'checked',
    resolution,
    ...(paymentIntentId ? { payment: { paymentIntentId, amount: 700, currency: 'EUR' } } : {}),
  },
});

describe('payment_ledger projector', () => {
  it('keeps one row when the same movement is reported twice', () => {
    const rows = foldReadModel(paymentLedgerReadModel, [succeeded('pi_1', true), succeeded('pi_1')]);
    expect([...rows.values()]).toEqual([expect.objectContaining({ paymentIntentId: 'pi_1', amount: 500, recovered: true, revision: 0 })]);
  });

  it('shows two charges of one order as two rows (a double charge stays visible)', () => {
    expect(foldReadModel(paymentLedgerReadModel, [succeeded('pi_1'), succeeded('pi_2')]).size).toBe(2);
  });

  it('records the payment support found at the provider when it resolved a review as paid, and nothing for one without', () => {
    const rows = foldReadModel(paymentLedgerReadModel, [resolved('paid', 'pi_found'), resolved('paid'), resolved('failed')]);
    expect([...rows.values()]).toEqual([
      expect.objectContaining({ orderId: '9', paymentIntentId: 'pi_found', amount: 700, providerReference: 'pi_found', recovered: true }),
    ]);
  });
});
