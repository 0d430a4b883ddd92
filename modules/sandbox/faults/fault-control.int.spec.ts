import Stripe from 'stripe';
import type { Fault, RequestLogEntry } from '../index';
import { SHOPPER, chargeParams, control, failureOf, injectFault, startSandbox, type SandboxUnderTest } from '../sandbox.fixture';

describe('arming and targeting faults', () => {
  let t: SandboxUnderTest;
  beforeEach(async () => {
    t = await startSandbox();
  });
  afterEach(() => t.sandbox.close());

  describe('targeting', () => {
    it('strikes only requests for the given order', async () => {
      await injectFault(t.sandbox, { kind: 'error_500', orderId: 'A' });

      const other = await t.stripe.paymentIntents.create(chargeParams('B'));
      const target = await failureOf(t.stripe.paymentIntents.create(chargeParams('A')));

      expect(other.status).toBe('succeeded');
      expect(target.statusCode).toBe(500);
    });

    it('strikes the next N matching requests when given times, then stops', async () => {
      await injectFault(t.sandbox, { kind: 'error_500', times: 2 });

      const outcomes = [];
      for (let i = 0; i < 3; i++) {
        outcomes.push(
          await t.stripe.paymentIntents.create(chargeParams(`n${i}`)).then(
            () => 200,
            (error: Stripe.errors.StripeError) => error.statusCode,
          ),
        );
      }

      expect(outcomes).toEqual([500, 500, 200]);
    });

    it('with probability and seed, strikes the same requests on every run', async () => {
      const hitsOfOneRun = async (): Promise<boolean[]> => {
        const run = await startSandbox();
        try {
          await control(run.sandbox, 'POST', '/_sandbox/faults', { kind: 'error_500', probability: 0.5, seed: 42 });
          const hits: boolean[] = [];
          for (let i = 0; i < 20; i++) {
            const outcome = await run.stripe.paymentIntents.create(chargeParams(`p${i}`)).then(
              () => false,
              () => true,
            );
            hits.push(outcome);
          }
          return hits;
        } finally {
          await run.sandbox.close();
        }
      };

      const first = await hitsOfOneRun();
      const second = await hitsOfOneRun();

      expect(second).toEqual(first);
      expect(first.filter(Boolean).length).toBeGreaterThan(0);
      expect(first.filter(Boolean).length).toBeLessThan(20);
    });
  });

  describe('control API', () => {
    it('DELETE /_sandbox/faults disarms every fault', async () => {
      await injectFault(t.sandbox, { kind: 'error_500', times: 5 });

      await control(t.sandbox, 'DELETE', '/_sandbox/faults');

      expect((await t.stripe.paymentIntents.create(chargeParams('10'))).status).toBe('succeeded');
    });

    it('POST /_sandbox/reset forgets intents, keys, faults and the request log', async () => {
      const before = await t.stripe.paymentIntents.create(chargeParams('11'), { idempotencyKey: 'k11' });
      await injectFault(t.sandbox, { kind: 'error_500', orderId: 'other' });

      await control(t.sandbox, 'POST', '/_sandbox/reset');

      expect((await control<{ data: Fault[] }>(t.sandbox, 'GET', '/_sandbox/faults')).body.data).toEqual([]);
      expect(t.sandbox.charges()).toEqual([]);
      // The reset forgot the customers too: the shopper is made again before the next charge.
      t.sandbox.createCustomer({ id: SHOPPER });
      const after = await t.stripe.paymentIntents.create(chargeParams('11'), { idempotencyKey: 'k11' });
      expect(after.id).not.toBe(before.id);
      expect((await control<{ data: RequestLogEntry[] }>(t.sandbox, 'GET', '/_sandbox/requests')).body.data).toHaveLength(1);
    });

    it.each([
      [{ kind: 'explode' }],
      [{ kind: 'latency', times: 0 }],
      [{ kind: 'error_500', probability: 2 }],
      [{ kind: 'error_500', times: 1, probability: 0.5 }],
      [{ kind: 'latency', stored: false }],
    ])('refuses the malformed fault %j with 400', async (spec) => {
      const { status } = await control(t.sandbox, 'POST', '/_sandbox/faults', spec);

      expect(status).toBe(400);
    });

    // A misspelt setting was dropped: `orderID` armed the fault for every order, `probabilty` made it strike once.
    it.each([
      [{ kind: 'error_500', orderID: 'one-order' }, 'orderID'],
      [{ kind: 'drop_after_commit', probabilty: 0.3 }, 'probabilty'],
      [{ kind: 'latency', msec: 5000 }, 'msec'],
    ])('refuses the fault %j, naming the setting it does not know, and arms nothing', async (spec, unknown) => {
      const { status, body } = await control<{ error: string }>(t.sandbox, 'POST', '/_sandbox/faults', spec);

      expect({ status, error: body.error }).toEqual({ status: 400, error: expect.stringContaining(`unknown setting ${unknown}`) });
      expect((await control<{ data: Fault[] }>(t.sandbox, 'GET', '/_sandbox/faults')).body.data).toEqual([]);
      expect((await t.stripe.paymentIntents.create(chargeParams('12'))).status).toBe('succeeded');
    });
  });
});
