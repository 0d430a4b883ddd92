/**
 * GET /v1/support/overview: the admin screen's header — duplicates absorbed (answers replayed by this
 * process, contact records recognised as known) and the lag of the read models the screen reads.
 */
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { expectProblem } from '../../../test/harness/expect-problem';
import { startSupportCases, type SupportCases } from '../../../test/harness/support-cases';
import { auth } from '../../../test/harness/test-app';
import { waitUntil } from '../../../test/harness/wait-until';
import { LAG_WAIT_MS } from './show-overview.controller';

let cases: SupportCases;
beforeAll(async () => {
  cases = await startSupportCases('support_overview');
});
afterAll(() => cases.close());

const overview = async () => (await cases.harness.app.inject({ url: '/v1/support/overview', headers: auth('support') })).json();

describe('GET /v1/support/overview', () => {
  it('counts a charge request sent again as one replayed answer', async () => {
    const before = (await overview()).duplicatesAbsorbed.replayedAnswers.count;
    const charge = () =>
      cases.harness.app.inject({
        method: 'POST',
        url: `/v1/orders/o-${orderSuffix}/charge`,
        headers: auth('storefront'),
        payload: { amount: 1200, currency: 'EUR', customerId: 'c1' },
      });
    const orderSuffix = randomUUID();
    expect((await charge()).headers['idempotent-replayed']).toBeUndefined();
    expect((await charge()).headers['idempotent-replayed']).toBe('true');
    expect((await overview()).duplicatesAbsorbed.replayedAnswers).toEqual({ count: before + 1, since: expect.any(String) });
  });

  it('counts a provider webhook delivered again as one replayed answer', async () => {
    // Found black-box: with the sandbox delivering every webhook twice, the count stayed at the charge
    // requests sent again; a webhook's redelivery is a duplicate absorbed as much as theirs.
    const before = (await overview()).duplicatesAbsorbed.replayedAnswers.count;
    const intent = {
      id: `pi_${randomUUID()}`,
      status: 'succeeded',
      amount: 1200,
      currency: 'eur',
      metadata: { order_id: `o-${randomUUID()}` },
    };
    const payload = JSON.stringify({ id: `evt_${randomUUID()}`, type: 'payment_intent.succeeded', data: { object: intent } });
    const deliver = () =>
      cases.harness.app.inject({
        method: 'POST',
        url: '/v1/webhooks/payments',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': Stripe.webhooks.generateTestHeaderString({
            payload,
            secret: cases.harness.runtime.config.payments.webhookSecret,
          }),
        },
        payload,
      });

    const first = await deliver();
    const again = await deliver();

    expect(first.json()).toEqual({ received: true, outcome: 'unknown_order' });
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.json()).toEqual({ received: true, duplicate: true });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await overview()).duplicatesAbsorbed.replayedAnswers.count).toBe(before + 1);
  });

  it('counts contact records that an import found unchanged or duplicated', async () => {
    const sourceId = `s-${randomUUID()}`;
    const record = { sourceId, version: 1, fields: { email: 'a@example.com' } };
    const batch = (records: object[]) =>
      cases.harness.app.inject({ method: 'POST', url: '/v1/contacts/import', headers: auth('sync'), payload: { source: 'crm', records } });
    const before = (await overview()).duplicatesAbsorbed.importRecords;
    const outcomes = [(await batch([record])).json(), (await batch([record])).json()].flatMap((answer) => answer.results);
    expect(outcomes.map((r: { outcome: string }) => r.outcome)).toEqual(['imported', 'unchanged']);
    const after = await waitUntil(overview, (o) => o.duplicatesAbsorbed.importRecords.unchanged > before.unchanged, 15_000);
    expect(after.duplicatesAbsorbed.importRecords).toEqual({ duplicate: before.duplicate, unchanged: before.unchanged + 1 });
  });

  it('shows the lag of the read models the screen reads, which catch up', async () => {
    const caughtUp = await waitUntil(overview, (o) => o.projections.every((p: { lagEvents: number }) => p.lagEvents === 0), 15_000);
    expect(caughtUp.projections.map((p: { name: string }) => p.name).sort()).toEqual(['import_events', 'orders', 'support_jobs']);
    expect(caughtUp.projections[0]).toEqual({ name: expect.any(String), version: 1, lagEvents: 0, lagEventsAtLeast: false, lagSeconds: 0 });
  });

  it('answers without the lag, saying why, when the event store does not answer in time', async () => {
    // Found black-box on EventStoreDB (the server paused): the route held for over a minute, and the
    // admin screen's header with it.
    const readAll = jest.spyOn(cases.harness.runtime.eventStore, 'readAll').mockReturnValue(new Promise(() => undefined));
    const started = Date.now();
    let answer: { statusCode: number; json: () => Record<string, unknown> };
    try {
      answer = await cases.harness.app.inject({ url: '/v1/support/overview', headers: auth('support') });
    } finally {
      readAll.mockRestore();
    }
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(LAG_WAIT_MS - 50);
    expect(took).toBeLessThan(LAG_WAIT_MS + 5_000);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      duplicatesAbsorbed: expect.objectContaining({ replayedAnswers: expect.any(Object), importRecords: expect.any(Object) }),
      projections: null,
      projectionsError: `no answer within ${LAG_WAIT_MS} ms`,
    });
  });

  it('is for the support role only', async () => {
    expect((await cases.harness.app.inject({ url: '/v1/support/overview', headers: auth('auditor') })).statusCode).toBe(403);
  });
});

describe('query parameters the support routes do not know', () => {
  it('refuses them with a 400 naming each, as the reviews list does', async () => {
    const answers = await Promise.all(
      ['/v1/support/overview?foo=1', '/v1/support/reviews?foo=1'].map((url) => cases.harness.app.inject({ url, headers: auth('support') })),
    );
    for (const answer of answers) {
      expectProblem(answer, 400, 'REQUEST.INVALID');
      expect(answer.json().errors).toEqual([{ field: 'foo', message: 'property foo should not exist' }]);
    }
    const reconcile = await cases.harness.app.inject({
      method: 'POST',
      url: '/v1/support/orders/x12/reconcile?force=1',
      headers: auth('support'),
    });
    expectProblem(reconcile, 400, 'REQUEST.INVALID');
    expect(reconcile.json().errors).toEqual([{ field: 'force', message: 'property force should not exist' }]);
  });
});
