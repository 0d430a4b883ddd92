import { deciderSpec } from '../../../test/harness/decider-spec';
import type { ChargeFailed, ChargeRequested, ChargeSucceeded, OrderEvent } from '../order.events';
import { orderCommands } from '../order.commands';
import { chargeFingerprint, decideRequestCharge, keyToRemember, needsKeyOnRecord, type RequestCharge } from './request-charge.decision';

const spec = deciderSpec(orderCommands, decideRequestCharge);
const pay: RequestCharge = { orderId: '481', amount: 1250, currency: 'EUR', customerId: 'cus_42', requestId: 'req-1' };

/** The ChargeRequested recorded for `command` as request `n` (optional fields only when given). */
const requested = (command: RequestCharge, n = 1): ChargeRequested => {
  const { orderId, amount, currency, customerId, description, idempotencyKey } = command;
  const optional = Object.entries({ description, idempotencyKey }).filter(([, value]) => value !== undefined);
  const requestFingerprint = chargeFingerprint(command);
  return {
    type: 'ChargeRequested',
    data: {
      orderId,
      amount,
      currency,
      customerId,
      requestFingerprint,
      providerKey: `idem-order-${orderId}-r${n}`,
      requestNumber: n,
      ...Object.fromEntries(optional),
    },
  };
};
const declined: ChargeFailed = {
  type: 'ChargeFailed',
  data: { orderId: '481', attempt: 1, declineCode: 'card_declined', reason: 'declined' },
};
const paid: ChargeSucceeded = {
  type: 'ChargeSucceeded',
  data: { orderId: '481', paymentIntentId: 'pi_1', amount: 1250, currency: 'EUR', recovered: false },
};

describe('chargeFingerprint', () => {
  it('is 32 hex characters, the same for the same charge, different when any charge-defining field differs', () => {
    const base = chargeFingerprint(pay);
    expect(base).toMatch(/^[0-9a-f]{32}$/);
    expect(chargeFingerprint({ amount: 1250, currency: 'EUR', customerId: 'cus_42' })).toBe(base);
    const changes = [{ amount: 1 }, { currency: 'USD' }, { customerId: 'c' }, { description: 'd' }];
    expect(new Set([base, ...changes.map((change) => chargeFingerprint({ ...pay, ...change }))]).size).toBe(5);
  });
});

describe('RequestCharge', () => {
  describe('when the order has no charge yet', () => {
    it('requests the charge as request 1 under the provider key of request 1', () => {
      spec
        .given([])
        .when(pay)
        .then([requested(pay, 1)]);
    });

    it('keeps the Idempotency-Key and the description with the request', () => {
      const command = { ...pay, idempotencyKey: 'key-1', description: 'two books' };
      spec
        .given([])
        .when(command)
        .then([requested(command, 1)]);
    });

    it('names the step with the request number and the request id, so two requests never share an event id', () => {
      const [decided] = spec.given([]).when(pay).decided();
      expect(decided.key).toBe('charge-requested/1/req-1');
    });
  });

  describe('when the same charge was already requested', () => {
    it.each<[string, OrderEvent[]]>([
      ['pending', [requested(pay)]],
      ['paid', [requested(pay), paid]],
    ])('decides nothing while it is %s (a duplicate is answered from the stream)', (_status, history) => {
      spec
        .given(history)
        .when({ ...pay, requestId: 'req-2' })
        .thenNothing();
    });
  });

  describe('when a request contradicts the recorded charge', () => {
    it.each<[string, Partial<RequestCharge>]>([
      ['amount', { amount: 1300 }],
      ['currency', { currency: 'USD' }],
      ['customer', { customerId: 'cus_other' }],
      ['description', { description: 'something else' }],
    ])('refuses another %s with ORDER.CHARGE_MISMATCH, saying what was recorded', (_field, change) => {
      spec
        .given([requested(pay)])
        .when({ ...pay, ...change })
        .thenRefuses('ORDER.CHARGE_MISMATCH', {
          kind: 'unprocessable',
          message: expect.stringContaining('different amount, currency, customer or description'),
          details: { orderId: '481', recorded: { amount: 1250, currency: 'EUR', customerId: 'cus_42' } },
        });
    });

    it('refuses a mismatch on a paid order too', () => {
      spec
        .given([requested(pay), paid])
        .when({ ...pay, amount: 1 })
        .thenRefuses('ORDER.CHARGE_MISMATCH');
    });
  });

  describe('when an Idempotency-Key comes again', () => {
    const keyed = { ...pay, idempotencyKey: 'key-1' };

    it('refuses it with another body (IDEMPOTENCY_KEY.REUSED), whatever the order status', () => {
      spec
        .given([requested(keyed), declined])
        .when({ ...keyed, amount: 99 })
        .thenRefuses('IDEMPOTENCY_KEY.REUSED', {
          kind: 'unprocessable',
          message: expect.stringContaining('different request body'),
          details: { orderId: '481' },
        });
    });

    it('answers the same body with what that request led to, even a decline (no new request)', () => {
      spec
        .given([requested(keyed), declined])
        .when(keyed)
        .thenNothing();
    });
  });

  describe('when the last request was declined', () => {
    it('requests again as the next request number under a new provider key', () => {
      spec
        .given([requested(pay), declined])
        .when(pay)
        .then([requested(pay, 2)]);
    });

    it('takes another amount then: a decline ends the earlier request', () => {
      const other = { ...pay, amount: 999 };
      spec
        .given([requested(pay), declined])
        .when(other)
        .then([requested(other, 2)]);
    });
  });

  describe('when an Idempotency-Key the stream does not name comes after a decline', () => {
    const late = { ...pay, idempotencyKey: 'key-dup' };
    const fold = (events: OrderEvent[]) => events.reduce(orderCommands.evolve, orderCommands.initialState());

    it('decides nothing until the key was looked up in its record', () => {
      expect(needsKeyOnRecord(late, fold([requested(pay), declined]))).toBe(true);
      spec
        .given([requested(pay), declined])
        .when(late)
        .thenNothing();
    });

    it('answers the same body with the decline when the key came on a duplicate of that request', () => {
      spec
        .given([requested(pay), declined])
        .when({ ...late, keyOnRecord: { requestNumber: 1, requestFingerprint: chargeFingerprint(pay) } })
        .thenNothing();
    });

    it('refuses another body under that key (IDEMPOTENCY_KEY.REUSED)', () => {
      spec
        .given([requested(pay), declined])
        .when({ ...late, amount: 99, keyOnRecord: { requestNumber: 1, requestFingerprint: chargeFingerprint(pay) } })
        .thenRefuses('IDEMPOTENCY_KEY.REUSED');
    });

    it('requests again when the key is new to the order too (looked up, no record)', () => {
      spec
        .given([requested(pay), declined])
        .when({ ...late, keyOnRecord: null })
        .then([requested(late, 2)]);
    });

    it('needs no look-up on an order asked for once and not declined, nor for a key the stream names', () => {
      expect(needsKeyOnRecord(late, fold([requested(pay)]))).toBe(false);
      expect(needsKeyOnRecord(late, fold([requested(late), declined]))).toBe(false);
    });
  });

  describe('after a request answered as a duplicate (keyToRemember)', () => {
    const fold = (events: OrderEvent[]) => events.reduce(orderCommands.evolve, orderCommands.initialState());
    const dup = { ...pay, idempotencyKey: 'key-dup' };

    it('remembers a new key with the request it was answered with and its body', () => {
      expect(keyToRemember(dup, fold([requested(pay)]))).toEqual({ requestNumber: 1, requestFingerprint: chargeFingerprint(pay) });
    });

    it('remembers nothing without a key, for a key the stream or the record names, or on a paid order', () => {
      expect(keyToRemember(pay, fold([requested(pay)]))).toBeUndefined();
      expect(keyToRemember(dup, fold([requested(dup)]))).toBeUndefined();
      expect(keyToRemember({ ...dup, keyOnRecord: { requestNumber: 1, requestFingerprint: 'f' } }, fold([requested(pay)]))).toBeUndefined();
      expect(keyToRemember(dup, fold([requested(pay), paid]))).toBeUndefined();
    });
  });
});
