import Stripe from 'stripe';
import type { Sandbox, StripeEvent } from '../index';
import { chargeParams, control, failureOf, nextSignal, startSandbox, stripeFor } from '../sandbox.fixture';
import { WebhookReceiver, type ReceivedWebhook } from './webhook-receiver.fixture';

const SECRET = 'whsec_test_sandbox';

describe('signed webhooks', () => {
  let receiver: WebhookReceiver;
  let sandbox: Sandbox;
  let stripe: Stripe;
  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
    ({ sandbox, stripe } = await startSandbox({ webhook: { url: receiver.url, secret: SECRET, retryDelaysMs: [20, 40] } }));
  });
  afterEach(async () => {
    await sandbox.close();
    await receiver.close();
  });

  const verified = (delivery: ReceivedWebhook): Stripe.Event =>
    stripe.webhooks.constructEvent(delivery.payload, delivery.signature, SECRET);

  it('sends payment_intent.succeeded with the intent, signed so that constructEvent accepts it', async () => {
    const intent = await stripe.paymentIntents.create(chargeParams('481'), { idempotencyKey: 'order-481' });

    const [delivery] = await receiver.waitFor(1);
    const event = verified(delivery);

    expect(event).toMatchObject({ object: 'event', type: 'payment_intent.succeeded', livemode: false });
    expect(event.id).toMatch(/^evt_/);
    expect(event.data.object).toEqual({ ...intent });
    expect(event.request).toEqual({ id: intent.lastResponse.requestId, idempotency_key: 'order-481' });
    expect(delivery.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  });

  it('sends payment_intent.payment_failed for a decline', async () => {
    const declined = await failureOf(stripe.paymentIntents.create(chargeParams('482', { payment_method: 'pm_card_chargeDeclined' })));

    const [delivery] = await receiver.waitFor(1);

    expect(verified(delivery)).toMatchObject({
      type: 'payment_intent.payment_failed',
      data: { object: { id: declined.payment_intent?.id, status: 'requires_payment_method' } },
    });
  });

  it('signs with the configured secret only: another secret fails verification', async () => {
    await stripe.paymentIntents.create(chargeParams('483'));

    const [delivery] = await receiver.waitFor(1);

    expect(() => stripe.webhooks.constructEvent(delivery.payload, delivery.signature, 'whsec_other')).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
  });

  it('sends nothing for a replayed answer or an injected 500: only committed final statuses make events', async () => {
    await control(sandbox, 'POST', '/_sandbox/faults', { kind: 'error_500', orderId: '484-fails' });
    await failureOf(stripe.paymentIntents.create(chargeParams('484-fails')));
    await stripe.paymentIntents.create(chargeParams('484'), { idempotencyKey: 'k484' });
    await stripe.paymentIntents.create(chargeParams('484'), { idempotencyKey: 'k484' });

    await sandbox.webhooksIdle();

    expect(receiver.received.map((delivery) => (verified(delivery).data.object as Stripe.PaymentIntent).metadata.order_id)).toEqual([
      '484',
    ]);
  });

  it('sends the event even when the API answer was dropped after commit', async () => {
    await control(sandbox, 'POST', '/_sandbox/faults', { kind: 'drop_after_commit', times: 2 });
    await failureOf(stripe.paymentIntents.create(chargeParams('485'), { idempotencyKey: 'k485' }));

    const [delivery] = await receiver.waitFor(1);

    expect(verified(delivery).data.object).toMatchObject({ metadata: { order_id: '485' }, status: 'succeeded' });
  });

  describe('duplicate mode', () => {
    it('delivers every event twice with the same id, both correctly signed', async () => {
      await control(sandbox, 'POST', '/_sandbox/webhooks/mode', { duplicate: true });
      await stripe.paymentIntents.create(chargeParams('486'));

      const deliveries = await receiver.waitFor(2);
      const [first, second] = deliveries.map(verified);

      expect(second.id).toBe(first.id);
      expect(second.type).toBe('payment_intent.succeeded');
    });
  });

  describe('reorder mode', () => {
    it('delivers the newer event of a pair first', async () => {
      await control(sandbox, 'POST', '/_sandbox/webhooks/mode', { reorder: true });
      await failureOf(stripe.paymentIntents.create(chargeParams('487', { payment_method: 'pm_card_chargeDeclined' })));
      await stripe.paymentIntents.create(chargeParams('487'));

      const deliveries = await receiver.waitFor(2);

      expect(deliveries.map((delivery) => verified(delivery).type)).toEqual(['payment_intent.succeeded', 'payment_intent.payment_failed']);
    });

    it('holds a lone event until it is flushed', async () => {
      await control(sandbox, 'POST', '/_sandbox/webhooks/mode', { reorder: true });
      await stripe.paymentIntents.create(chargeParams('488'));
      await sandbox.webhooksIdle();
      expect(receiver.received).toHaveLength(0);

      const { body } = await control<{ flushed: number }>(sandbox, 'POST', '/_sandbox/webhooks/flush');

      expect(body.flushed).toBe(1);
      expect(verified((await receiver.waitFor(1))[0]).type).toBe('payment_intent.succeeded');
    });
  });

  it('resends a past event on POST /_sandbox/webhooks/resend, and 404s an unknown one', async () => {
    await stripe.paymentIntents.create(chargeParams('489'));
    const original = verified((await receiver.waitFor(1))[0]);

    const resent = await control(sandbox, 'POST', '/_sandbox/webhooks/resend', { eventId: original.id });
    const unknown = await control(sandbox, 'POST', '/_sandbox/webhooks/resend', { eventId: 'evt_unknown' });

    expect(resent.status).toBe(202);
    expect(verified((await receiver.waitFor(2))[1]).id).toBe(original.id);
    expect(unknown.status).toBe(404);
  });

  it('retries a failed delivery with backoff until the endpoint accepts it', async () => {
    receiver.answerWith(500, 503);
    await stripe.paymentIntents.create(chargeParams('490'));

    const deliveries = await receiver.waitFor(3);
    await sandbox.webhooksIdle();

    expect(deliveries.map((delivery) => delivery.status)).toEqual([500, 503, 200]);
    expect(new Set(deliveries.map((delivery) => verified(delivery).id)).size).toBe(1);
    const { body } = await control<{ data: Array<{ event: StripeEvent; deliveries: Array<{ delivered: boolean }> }> }>(
      sandbox,
      'GET',
      '/_sandbox/webhooks/events',
    );
    expect(body.data[0].deliveries.map((attempt) => attempt.delivered)).toEqual([false, false, true]);
  });

  it('keeps serving the API when the endpoint is unreachable, and gives up after its retries', async () => {
    sandbox.configureWebhook({ url: 'http://127.0.0.1:1/unreachable', secret: SECRET });
    const lastAttempt = nextSignal(sandbox, 'webhook-attempted', (attempt) => attempt.attempt === 3);

    const intent = await stripe.paymentIntents.create(chargeParams('491'));
    const attempt = await lastAttempt;
    const again = await stripeFor(sandbox).paymentIntents.retrieve(intent.id);

    expect(attempt).toMatchObject({ delivered: false, status: null });
    expect(attempt.error).toMatch(/ECONNREFUSED/);
    expect(again.id).toBe(intent.id);
  });
});
