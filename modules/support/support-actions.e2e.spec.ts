import { randomUUID } from 'node:crypto';
import {
  orderInReviewNothingCharged,
  orderInReview as reviewOrder,
  orderInUnknownState as unknownOrder,
  requestCharge,
} from '../../test/harness/support-cases';
import { auth, startTestApp, type TestApp } from '../../test/harness/test-app';
import { WebhookDeliveries, chargeOrder, loadOrder, type ChargeOrderDeps } from '../payments';
import { waitFor } from '../../test/projections/projection-harness';
import { isSucceededCharge } from '../sandbox';

let harness: TestApp;
let deps: ChargeOrderDeps;
beforeAll(async () => {
  harness = await startTestApp('support_actions');
  deps = {
    store: harness.runtime.eventStore,
    gateway: harness.gateway,
    workerId: 'w',
    outsidePayments: new WebhookDeliveries(harness.runtime.pool),
  };
});
afterAll(() => harness.close());

const orderInUnknownState = () => unknownOrder({ harness, deps });

describe('POST /v1/support/orders/{orderId}/reconcile', () => {
  it('asks the provider now, records the recovered charge as done by the support person, and writes an audit line', async () => {
    const orderId = await orderInUnknownState();
    const requestId = `support-${randomUUID()}`;
    const response = await harness.app.inject({
      method: 'POST',
      url: `/v1/support/orders/${orderId}/reconcile`,
      headers: { ...auth('support'), 'x-request-id': requestId },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ orderId, oldStatus: 'unknown', newStatus: 'paid', order: { status: 'paid' } });
    expect((await loadOrder(harness.runtime.eventStore, orderId)).state.recovered).toBe(true);
    expect(harness.sandbox.charges({ orderId }).filter(isSucceededCharge)).toHaveLength(1);
    // DESIGN.md §4: the actor is who did it (the support token), the cause is this request.
    const recovered = (await harness.runtime.eventStore.readStream(`order-${orderId}`)).at(-1)!;
    expect(recovered.type).toBe('ChargeSucceeded');
    expect(recovered.metadata).toMatchObject({ causationId: requestId, actor: { role: 'support' } });
    const tokenId = (recovered.metadata.actor as { tokenId: string }).tokenId;
    const { rows } = await harness.runtime.pool.query(
      'SELECT provider_key, old_status, new_status, trigger, requested_by, request_id FROM payment_recovery_log WHERE order_id = $1',
      [orderId],
    );
    expect(rows).toEqual([
      {
        provider_key: `idem-order-${orderId}-r1`,
        old_status: 'unknown',
        new_status: 'paid',
        trigger: 'support',
        requested_by: `support:${tokenId}`,
        request_id: requestId,
      },
    ]);
  });

  it("leaves an attempt still in flight to its worker: nothing sent, no attempt claimed, and the worker's outcome recorded", async () => {
    const orderId = await requestCharge(harness);
    // The worker's create is held 2 s at the provider: its charge is in flight when support clicks.
    await fetch(`${harness.sandbox.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'latency', orderId, ms: 2000, times: 1 }),
    });
    const working = chargeOrder(deps, orderId);
    await waitFor(
      'the worker to start its attempt',
      async () => (await loadOrder(harness.runtime.eventStore, orderId)).state.status === 'processing',
    );

    const response = await harness.app.inject({ method: 'POST', url: `/v1/support/orders/${orderId}/reconcile`, headers: auth('support') });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ oldStatus: 'processing', newStatus: 'processing', reason: 'an attempt is still in flight' });
    expect(await working).toBe('settled');
    const history = (await harness.runtime.eventStore.readStream(`order-${orderId}`)).map((e) => e.type);
    expect(history.filter((type) => type === 'ChargeAttemptStarted')).toHaveLength(1);
    expect(history.at(-1)).toBe('ChargeSucceeded');
    expect(harness.sandbox.requests({ orderId }).map((r) => r.status)).toEqual([200]);
  });

  it('answers an order that was never requested 404 ORDER.NOT_FOUND, as GET /v1/orders/{id} does', async () => {
    const orderId = `never-${randomUUID()}`;
    const response = await harness.app.inject({ method: 'POST', url: `/v1/support/orders/${orderId}/reconcile`, headers: auth('support') });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json()).toMatchObject({ code: 'ORDER.NOT_FOUND' });
  });

  it('is for the support role only', async () => {
    const response = await harness.app.inject({ method: 'POST', url: `/v1/support/orders/x/reconcile`, headers: auth('storefront') });
    expect(response.statusCode).toBe(403);
  });
});

describe('POST /v1/support/orders/{orderId}/resolve', () => {
  const orderInReview = () => reviewOrder({ harness, deps });

  it('closes a needs-review case with the note and the decision', async () => {
    const orderId = await orderInReview();
    const response = await harness.app.inject({
      method: 'POST',
      url: `/v1/support/orders/${orderId}/resolve`,
      headers: auth('support'),
      payload: { resolution: 'paid', note: 'refunded the duplicate in the dashboard' },
    });
    expect(response.statusCode).toBe(200);
    // "Paid" names a payment the provider holds for the order (it holds two here: the order's own,
    // whose answer was lost, and one made outside Idem).
    const held = harness.sandbox.charges({ orderId }).filter(isSucceededCharge);
    expect(held).toHaveLength(2);
    const answer = response.json();
    expect(answer).toMatchObject({ orderId, status: 'paid' });
    expect(held.map((charge) => charge.id)).toContain(answer.paymentIntentId);
    const events = await harness.runtime.eventStore.readStream(`order-${orderId}`);
    expect(events.at(-1)).toMatchObject({
      type: 'ChargeReviewResolved',
      data: { note: 'refunded the duplicate in the dashboard', resolution: 'paid', payment: { paymentIntentId: answer.paymentIntentId } },
    });
  });

  it('refuses "paid" while the provider shows no payment for the order, and writes nothing', async () => {
    const orderId = await orderInReviewNothingCharged({ harness, deps });
    const before = (await harness.runtime.eventStore.readStream(`order-${orderId}`)).length;
    const response = await harness.app.inject({
      method: 'POST',
      url: `/v1/support/orders/${orderId}/resolve`,
      headers: auth('support'),
      payload: { resolution: 'paid', note: 'the customer says it went through' },
    });
    expect(harness.sandbox.charges({ orderId }).filter(isSucceededCharge)).toHaveLength(0);
    // Moments after the last attempt a request may still be executing at the provider: ask again later
    // (after that, with still nothing shown, it is 422 ORDER.PROVIDER_HOLDS_NO_CHARGE).
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ code: 'ORDER.PROVIDER_UNVERIFIED' });
    expect(await harness.runtime.eventStore.readStream(`order-${orderId}`)).toHaveLength(before);
    expect((await loadOrder(harness.runtime.eventStore, orderId)).state.status).toBe('needs_review');
  });

  it('lets one of two people resolving the same case at once decide, and tells the other it is closed', async () => {
    const orderId = await orderInReview();
    const resolve = (note: string) =>
      harness.app.inject({
        method: 'POST',
        url: `/v1/support/orders/${orderId}/resolve`,
        headers: auth('support'),
        payload: { resolution: 'paid', note },
      });
    const answers = await Promise.all([resolve('refunded one of the two'), resolve('kept both, refunded later')]);

    const events = await harness.runtime.eventStore.readStream(`order-${orderId}`);
    const resolved = events.filter((e) => e.type === 'ChargeReviewResolved');
    expect(resolved).toHaveLength(1);
    const winner = answers.find((a) => a.statusCode === 200)!;
    const loser = answers.find((a) => a.statusCode !== 200)!;
    // The one answered 200 is the decision the stream holds; the other learns the case is closed.
    expect(winner.json()).toMatchObject({ status: (resolved[0].data as { resolution: string }).resolution });
    expect(resolved[0].data).toMatchObject({ note: winner === answers[0] ? 'refunded one of the two' : 'kept both, refunded later' });
    expect(loser.statusCode).toBe(422);
    expect(loser.json()).toMatchObject({ code: 'ORDER.NOT_IN_REVIEW' });
  });

  describe('when two resolutions reuse one X-Request-Id with different notes', () => {
    const resolveAs = (orderId: string, requestId: string, note: string) =>
      harness.app.inject({
        method: 'POST',
        url: `/v1/support/orders/${orderId}/resolve`,
        headers: { ...auth('support'), 'x-request-id': requestId },
        payload: { resolution: 'paid', note },
      });
    const notesOf = async (orderId: string) =>
      (await harness.runtime.eventStore.readStream(`order-${orderId}`))
        .filter((e) => e.type === 'ChargeReviewResolved')
        .map((e) => e.data.note);

    it('records one, answers it 200 and tells the other the case is closed (at once)', async () => {
      const orderId = await orderInReview();
      const requestId = `req-${randomUUID()}`;
      const answers = await Promise.all([resolveAs(orderId, requestId, 'first note'), resolveAs(orderId, requestId, 'second note')]);
      const notes = await notesOf(orderId);
      expect(notes).toHaveLength(1);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 422]);
      expect(answers.find((a) => a.statusCode === 422)!.json()).toMatchObject({ code: 'ORDER.NOT_IN_REVIEW' });
      // The 200 went to the request whose note the stream holds.
      const winner = answers.findIndex((a) => a.statusCode === 200);
      expect(notes[0]).toBe(winner === 0 ? 'first note' : 'second note');
    });

    it('refuses the second with 422 when they come one after the other', async () => {
      const orderId = await orderInReview();
      const requestId = `req-${randomUUID()}`;
      expect((await resolveAs(orderId, requestId, 'first note')).statusCode).toBe(200);
      const second = await resolveAs(orderId, requestId, 'second note');
      expect(second.statusCode).toBe(422);
      expect(await notesOf(orderId)).toEqual(['first note']);
    });

    it('answers a resend of the same request (its first answer lost) with what it did, recording it once', async () => {
      const orderId = await orderInReview();
      const requestId = `req-${randomUUID()}`;
      const first = await resolveAs(orderId, requestId, 'first note');
      const resent = await resolveAs(orderId, requestId, 'first note');
      expect(first.statusCode).toBe(200);
      expect(resent.statusCode).toBe(200);
      expect(resent.json()).toEqual(first.json());
      expect(await notesOf(orderId)).toEqual(['first note']);
    });
  });

  it.each([
    ['three spaces', '   '],
    ['blank lines and tabs', '\n\t\n\t '],
    ['two letters padded with spaces', '  ok  '],
  ])('refuses a note of %s (no explanation) with a 400 naming note, and leaves the case open', async (_case, note) => {
    const orderId = await orderInReview();
    const before = await harness.runtime.eventStore.readStream(`order-${orderId}`);
    const answer = await harness.app.inject({
      method: 'POST',
      url: `/v1/support/orders/${orderId}/resolve`,
      headers: auth('support'),
      payload: { resolution: 'paid', note },
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(answer.json()).toMatchObject({
      code: 'REQUEST.INVALID',
      errors: [{ field: 'note', message: 'note must explain the decision (at least 3 characters besides spaces)' }],
    });
    expect(await harness.runtime.eventStore.readStream(`order-${orderId}`)).toEqual(before);
    expect((await loadOrder(deps.store, orderId)).state.status).toBe('needs_review');
  });

  it('refuses an order that is not waiting for review, and bad bodies, writing nothing', async () => {
    const orderId = await orderInUnknownState();
    const before = (await harness.runtime.eventStore.readStream(`order-${orderId}`)).length;
    const notInReview = await harness.app.inject({
      method: 'POST',
      url: `/v1/support/orders/${orderId}/resolve`,
      headers: auth('support'),
      payload: { resolution: 'paid', note: 'looks fine' },
    });
    expect(notInReview.statusCode).toBe(422);
    expect(notInReview.json()).toMatchObject({ code: 'ORDER.NOT_IN_REVIEW', orderStatus: 'unknown' });
    const badBody = await harness.app.inject({
      method: 'POST',
      url: `/v1/support/orders/${orderId}/resolve`,
      headers: auth('support'),
      payload: { resolution: 'maybe' },
    });
    expect(badBody.statusCode).toBe(400);
    expect(new Set(badBody.json().errors.map((e: { field: string }) => e.field))).toEqual(new Set(['note', 'resolution']));
    expect(await harness.runtime.eventStore.readStream(`order-${orderId}`)).toHaveLength(before);
  });
});
