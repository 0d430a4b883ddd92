import Stripe from 'stripe';
import type { HeldResponse, PaymentIntent } from '../index';
import { chargeParams, control, failureOf, injectFault, nextSignal, startSandbox, type SandboxUnderTest } from '../sandbox.fixture';

describe('faults that strike after commit (drop, reset, hold)', () => {
  let t: SandboxUnderTest;
  beforeEach(async () => {
    t = await startSandbox();
  });
  afterEach(() => t.sandbox.close());

  describe.each([
    // A plain close surfaces as "socket hang up"; only an RST is read as "read ECONNRESET".
    ['drop_after_commit', 'socket hang up'],
    ['reset_after_commit', 'read ECONNRESET'],
  ])('%s', (kind, clientSees) => {
    it('commits the intent and stores its answer, but the client only sees a connection error', async () => {
      // Twice, so that stripe-node's own one-time retry of a closed connection is lost as well.
      await injectFault(t.sandbox, { kind, times: 2, orderId: '6' });

      const error = await failureOf(t.stripe.paymentIntents.create(chargeParams('6'), { idempotencyKey: 'k6' }));

      expect(error).toBeInstanceOf(Stripe.errors.StripeConnectionError);
      expect((error.detail as Error | undefined)?.message).toBe(clientSees);
      const { body } = await control<{ data: PaymentIntent[] }>(t.sandbox, 'GET', '/_sandbox/charges?orderId=6');
      expect(body.data).toEqual([expect.objectContaining({ status: 'succeeded' })]);
      const recovered = await t.stripe.paymentIntents.create(chargeParams('6'), { idempotencyKey: 'k6' });
      expect(recovered.id).toBe(body.data[0].id);
      expect(recovered.lastResponse.headers['idempotent-replayed']).toBe('true');
      expect(t.sandbox.requests().map((entry) => [entry.fault, entry.status, entry.replayed])).toEqual([
        [kind, null, false],
        [kind, null, true],
        [null, 200, true],
      ]);
    });

    it("is healed by stripe-node's silent retry with the same key when it strikes once", async () => {
      await injectFault(t.sandbox, { kind, orderId: '7' });

      const intent = await t.stripe.paymentIntents.create(chargeParams('7'), { idempotencyKey: 'k7' });

      expect(intent.lastResponse.headers['idempotent-replayed']).toBe('true');
      expect(t.sandbox.charges({ orderId: '7' })).toHaveLength(1);
    });
  });

  describe('hold_after_commit', () => {
    it('commits, holds the answer until POST /_sandbox/release, then answers with the committed intent', async () => {
      await injectFault(t.sandbox, { kind: 'hold_after_commit', orderId: '8' });
      let answered = false;
      const pending = t.stripe.paymentIntents.create(chargeParams('8'), { idempotencyKey: 'k8' }).then((intent) => {
        answered = true;
        return intent;
      });

      const holds = await control<{ data: HeldResponse[] }>(t.sandbox, 'GET', '/_sandbox/holds?minCount=1&waitMs=10000');
      const committed = t.sandbox.charges({ orderId: '8' });

      expect(holds.body.data).toEqual([expect.objectContaining({ orderId: '8', idempotencyKey: 'k8', intentId: committed[0].id })]);
      expect(committed).toEqual([expect.objectContaining({ status: 'succeeded' })]);
      expect(answered).toBe(false);
      const released = await control<{ released: number }>(t.sandbox, 'POST', '/_sandbox/release', { orderId: '8' });
      expect(released.body.released).toBe(1);
      expect((await pending).id).toBe(committed[0].id);
    });

    it('lets go of the held connection when the sandbox closes', async () => {
      await injectFault(t.sandbox, { kind: 'hold_after_commit' });
      const held = nextSignal(t.sandbox, 'response-held');
      const pending = failureOf(t.stripe.paymentIntents.create(chargeParams('9')));
      await held;

      await t.sandbox.close();

      expect(await pending).toBeInstanceOf(Stripe.errors.StripeConnectionError);
    });
  });
});
