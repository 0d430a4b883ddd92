import type { RecordedEvent } from '../../src/event-store/event-store.port';
import { foldReadModel } from '../../src/subscriptions/read-models/read-model';
import { ordersReadModel } from './orders.projector';

let revision = 0;
function recorded(type: string, data: Record<string, unknown>, at = `2026-02-01T10:00:0${revision}.000Z`): RecordedEvent {
  return {
    id: `00000000-0000-4000-8000-00000000000${revision}`,
    stream: 'order-481',
    revision: revision++,
    position: `1/${revision}` as RecordedEvent['position'],
    type,
    data,
    metadata: { correlationId: 'req-1', causationId: 'req-1', actor: { role: 'storefront', tokenId: 't' }, recordedAt: at },
    created: new Date(at),
  };
}

const requested = (n = 1) =>
  recorded('ChargeRequested', {
    orderId: '481',
    amount: 1299,
    currency: 'EUR',
    customerId: 'cus_7',
    requestFingerprint: 'f',
    providerKey: 'k',
    requestNumber: n,
  });
const started = (attempt: number) => recorded('ChargeAttemptStarted', { orderId: '481', attempt, workerId: 'w', providerKey: 'k' });
const orderAfter = (events: RecordedEvent[]) => foldReadModel(ordersReadModel, events).get('481');

beforeEach(() => {
  revision = 0;
});

describe('orders projector', () => {
  it('shows a requested charge as pending with no attempts', () => {
    expect(orderAfter([requested()])).toMatchObject({
      orderId: '481',
      status: 'pending',
      amount: 1299,
      currency: 'EUR',
      customerId: 'cus_7',
      attempts: 0,
      revision: 0,
    });
  });

  describe('when the provider outcome was unknown and a retry succeeded', () => {
    it('is paid, counts both attempts, records the intent and keeps the error it overcame', () => {
      const events = [
        requested(),
        started(1),
        recorded('ChargeOutcomeUnknown', { orderId: '481', attempt: 1, error: 'ETIMEDOUT' }),
        started(2),
      ];
      expect(orderAfter(events)).toMatchObject({ status: 'processing', attempts: 2, lastError: 'ETIMEDOUT' });
      events.push(
        recorded('ChargeSucceeded', {
          orderId: '481',
          paymentIntentId: 'pi_1',
          providerChargeId: 'ch_1',
          amount: 1299,
          currency: 'EUR',
          recovered: true,
        }),
      );
      expect(orderAfter(events)).toMatchObject({
        status: 'paid',
        attempts: 2,
        paymentIntentId: 'pi_1',
        providerChargeId: 'ch_1',
        // A paid order shows no error; the unknown outcome it was recovered from stays in its events.
        lastError: null,
        revision: 4,
      });
    });
  });

  describe('when a new request follows a failed charge', () => {
    it('starts the order over as pending with zero attempts', () => {
      const events = [
        requested(),
        started(1),
        recorded('ChargeFailed', { orderId: '481', attempt: 1, declineCode: 'card_declined', reason: 'declined' }),
      ];
      expect(orderAfter(events)).toMatchObject({ status: 'failed', lastError: 'card_declined: declined' });
      expect(orderAfter([...events, requested(2)])).toMatchObject({ status: 'pending', attempts: 0, lastError: null, revision: 3 });
    });
  });

  it('ignores an event it has already reflected (a replayed delivery)', () => {
    const events = [requested(), started(1)];
    const row = orderAfter(events)!;
    expect(ordersReadModel.evolve(row, events[1])).toBe(row);
  });

  it('shows nothing for a stream that never requested a charge', () => {
    expect(orderAfter([started(1)])).toBeUndefined();
  });
});
