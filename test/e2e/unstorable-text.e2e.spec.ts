/**
 * Free text PostgreSQL cannot hold (a NUL, a lone UTF-16 surrogate) in the public commands' text
 * fields is a field problem: 400 REQUEST.INVALID naming the field, before anything is decided or
 * written — not the event store's refusal of the event afterwards (src/errors/storable-text.ts).
 */
import { randomUUID } from 'node:crypto';
import { loadOrder } from '../../modules/payments';
import { orderInReview, startSupportCases, type SupportCases } from '../harness/support-cases';
import { auth } from '../harness/test-app';

let cases: SupportCases;
beforeAll(async () => {
  cases = await startSupportCases('unstorable_text');
  cases.harness.sandbox.createCustomer({ id: 'cus_42' });
});
afterAll(() => cases.close());

const UNSTORABLE: Array<[label: string, text: string, message: RegExp]> = [
  ['a NUL', 'Order 481\u0000two books', /U\+0000/],
  ['a lone high surrogate', 'Order 481 \ud800 two books', /lone UTF-16 surrogate/],
  ['a lone low surrogate', '\udc00Order 481', /lone UTF-16 surrogate/],
];

const expectFieldRefused = (answer: { statusCode: number; json(): unknown }, field: string, message: RegExp) => {
  expect(answer.statusCode).toBe(400);
  expect(answer.json()).toMatchObject({ code: 'REQUEST.INVALID', errors: [{ field, message: expect.stringMatching(message) }] });
};

describe('POST /v1/orders/{orderId}/charge with a description that cannot be stored', () => {
  const charge = (orderId: string, description: string, idempotencyKey: string) =>
    cases.harness.app.inject({
      method: 'POST',
      url: `/v1/orders/${orderId}/charge`,
      headers: { ...auth('storefront'), 'idempotency-key': idempotencyKey },
      payload: { amount: 1250, currency: 'EUR', customerId: 'cus_42', description },
    });

  it.each(UNSTORABLE)(
    'refuses %s as a problem of `description`, writes nothing, and leaves the key usable',
    async (_label, text, message) => {
      const orderId = `o-${randomUUID()}`;
      const key = `k-${randomUUID()}`;
      expectFieldRefused(await charge(orderId, text, key), 'description', message);
      expect((await loadOrder(cases.harness.runtime.eventStore, orderId)).state.exists).toBe(false);

      const retried = await charge(orderId, 'Order 481: two books', key);
      expect(retried.statusCode).toBe(202);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
      expect(await cases.harness.runtime.eventStore.readStream(`order-${orderId}`)).toHaveLength(1);
    },
  );
});

describe('POST /v1/support/orders/{orderId}/resolve with a note that cannot be stored', () => {
  let orderId: string;
  beforeAll(async () => {
    orderId = await orderInReview(cases, { customerId: `cus-${randomUUID()}` });
  });

  const resolve = (note: string) =>
    cases.harness.app.inject({
      method: 'POST',
      url: `/v1/support/orders/${orderId}/resolve`,
      headers: auth('support'),
      payload: { resolution: 'failed', note },
    });

  it.each(UNSTORABLE)('refuses %s as a problem of `note` and writes nothing', async (_label, text, message) => {
    const before = await loadOrder(cases.harness.runtime.eventStore, orderId);
    expectFieldRefused(await resolve(text), 'note', message);
    const after = await loadOrder(cases.harness.runtime.eventStore, orderId);
    expect({ status: after.state.status, revision: after.revision }).toEqual({ status: 'needs_review', revision: before.revision });
  });
});
