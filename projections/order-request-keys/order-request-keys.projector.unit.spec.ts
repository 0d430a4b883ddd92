import type { RecordedEvent } from '../../src/event-store/event-store.port';
import { foldReadModel } from '../../src/subscriptions/read-models/read-model';
import { orderRequestKeysReadModel } from './order-request-keys.projector';

let revision = 0;
const event = (type: string, data: Record<string, unknown>, metadata: Record<string, unknown> = {}, orderId = '9'): RecordedEvent => ({
  id: `00000000-0000-4000-8000-0000000000${String(revision).padStart(2, '0')}`,
  stream: `order-${orderId}`,
  revision: revision++,
  position: `1/${revision}` as RecordedEvent['position'],
  type,
  data: { orderId, ...data },
  metadata: {
    correlationId: 'corr',
    causationId: 'corr',
    actor: { role: 'storefront', tokenId: 't' },
    recordedAt: '2026-02-01T10:00:00.000Z',
    ...metadata,
  },
  created: new Date('2026-02-01T10:00:00.000Z'),
});

const keys = (events: RecordedEvent[]) =>
  [...foldReadModel(orderRequestKeysReadModel, events).values()].map((row) => [row.key, row.orderId, row.kind, row.revision]);

const requested = (customerId: string, metadata: Record<string, unknown>, orderId?: string) =>
  event('ChargeRequested', { amount: 500, currency: 'EUR', customerId, requestFingerprint: 'f', providerKey: 'k' }, metadata, orderId);

describe('order_request_keys projector', () => {
  beforeEach(() => (revision = 0));

  it('keeps the customer and the request id of every request for an order, the first request’s too', () => {
    const first = requested('cus_declined', { requestId: 'req-1' });
    const failed = event('ChargeFailed', { attempt: 1, declineCode: 'generic_decline', reason: 'declined' });
    const second = requested('cus_paying', { requestId: 'req-2' });
    expect(keys([first, failed, second])).toEqual([
      ['cus_declined', '9', 'customer', 0],
      ['req-1', '9', 'request', 0],
      ['cus_paying', '9', 'customer', 2],
      ['req-2', '9', 'request', 2],
    ]);
  });

  it('keeps the first request that carried an id, and falls back to the correlation id without a request id', () => {
    const first = requested('cus_same', { correlationId: 'cli-run' });
    const again = requested('cus_same', { requestId: 'req-3' });
    expect(keys([first, again])).toEqual([
      ['cus_same', '9', 'customer', 0],
      ['cli-run', '9', 'request', 0],
      ['req-3', '9', 'request', 1],
    ]);
  });

  it('lists one id once per order it asked for', () => {
    expect(keys([requested('cus_many', { requestId: 'a' }, '1'), requested('cus_many', { requestId: 'b' }, '2')])).toEqual([
      ['cus_many', '1', 'customer', 0],
      ['a', '1', 'request', 0],
      ['cus_many', '2', 'customer', 1],
      ['b', '2', 'request', 1],
    ]);
  });
});
