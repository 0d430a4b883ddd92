import type { EventStore, RecordedEvent } from '../../../src/event-store/event-store.port';
import type { ChargeInstruction, PaymentGateway, ProviderPayment } from '../payment-gateway/payment-gateway.port';
import { checkProviderForOrder } from './provider-check';

const HOUR = 3600_000;
const t0 = Date.UTC(2026, 0, 10, 12);
let revision = 0;
const event = (type: string, data: Record<string, unknown>, at: number): RecordedEvent =>
  ({
    id: `e${revision}`,
    stream: 'order-o1',
    revision: revision++,
    position: '0/0',
    type,
    data,
    metadata: { recordedAt: new Date(at).toISOString() },
    created: new Date(at),
  }) as unknown as RecordedEvent;
const request = (n: number, at: number) =>
  event(
    'ChargeRequested',
    { orderId: 'o1', amount: 4200, currency: 'EUR', customerId: 'cus_1', providerKey: `k${n}`, requestNumber: n, requestFingerprint: 'f' },
    at,
  );
const attempt = (n: number, at: number) =>
  event('ChargeAttemptStarted', { orderId: 'o1', attempt: 1, workerId: 'w', providerKey: `k${n}` }, at);
const paid = (id: string): ProviderPayment => ({ paymentIntentId: id, status: 'succeeded', amount: 4200, currency: 'EUR' });

function gatewayFake(search: ProviderPayment[], byId: Record<string, ProviderPayment>) {
  const replayed: string[] = [];
  const gateway: PaymentGateway = {
    charge: async (instruction: ChargeInstruction) => {
      replayed.push(instruction.idempotencyKey);
      return { kind: 'declined', declineCode: 'generic_decline', reason: 'declined' };
    },
    findPayments: async () => search,
    retrievePayment: async (id) => byId[id],
    savedPaymentMethod: async () => ({ kind: 'found', paymentMethodId: 'pm_card_visa' }),
  };
  return { gateway, replayed };
}

describe('checkProviderForOrder', () => {
  const history = [
    request(1, t0),
    attempt(1, t0),
    event('ChargeFailed', { orderId: 'o1', attempt: 1, declineCode: 'generic_decline', reason: 'x', paymentIntentId: 'pi_old' }, t0),
    request(2, t0 + 30 * HOUR),
    attempt(2, t0 + 30 * HOUR),
    request(3, t0 + 31 * HOUR), // never attempted: its key never reached the provider
  ];
  const store = { readStream: async () => history } as unknown as EventStore;

  describe('when one key is within its window and another is older', () => {
    it('replays only the recent key that was sent, and asks search and retrieve-by-id about the rest', async () => {
      const { gateway, replayed } = gatewayFake([], { pi_old: paid('pi_old') });

      const check = await checkProviderForOrder(gateway, store, 'o1', new Date(t0 + 32 * HOUR));

      expect(replayed).toEqual(['k2']);
      // Search has not shown pi_old, but retrieve by id (strongly consistent) has: it succeeded after all.
      expect(check).toEqual({ succeeded: ['pi_old'], pending: [], unanswered: [] });
    });
  });

  describe('when every key is within its window', () => {
    it('never searches', async () => {
      const { gateway, replayed } = gatewayFake([paid('pi_search')], {});

      const recent = [request(1, t0), attempt(1, t0), request(2, t0 + HOUR), attempt(2, t0 + HOUR)];

      const check = await checkProviderForOrder(
        gateway,
        { readStream: async () => recent } as unknown as EventStore,
        'o1',
        new Date(t0 + 2 * HOUR),
      );

      expect(replayed).toEqual(['k1', 'k2']);
      expect(check.succeeded).toEqual([]);
    });
  });
});
