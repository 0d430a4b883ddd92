/**
 * RequestCharge: the storefront asks to charge an order. The order id is the business key, so a
 * duplicate (double click, retry after a timeout, another tab) finds the charge already requested and
 * changes nothing; a request that contradicts the recorded one is refused; only after a decline may
 * the order be charged again.
 */
import { createHash } from 'node:crypto';
import type { NewEvent } from '../../../src/command-handling/decider';
import { AppError } from '../../../src/errors/app-error';
import type { ChargeRequested, OrderEvent } from '../order.events';
import type { OrderState } from '../order.state';
import type { KeyOnRecord } from './request-keys';

export interface RequestCharge {
  orderId: string;
  amount: number;
  currency: string;
  customerId: string;
  description?: string;
  idempotencyKey?: string;
  /** The HTTP request's id: a proxy retrying the very same request re-appends the same event. */
  requestId: string;
  /**
   * What request-keys.ts remembers of `idempotencyKey` (a key first seen on a duplicate): null when it
   * was looked up and is unknown, undefined when it was not looked up (see {@link needsKeyOnRecord}).
   */
  keyOnRecord?: KeyOnRecord | null;
}

/**
 * A key the stream does not name may have been answered as a duplicate of an earlier request: on an
 * order that was declined (a new request may start) or asked for more than once (the key's answer
 * may be an earlier request's), the decision needs its record first. Other orders, and every request
 * without a key or under a key the stream names, are decided without the look-up.
 */
export function needsKeyOnRecord(command: RequestCharge, state: OrderState): boolean {
  const key = command.idempotencyKey;
  if (key === undefined || command.keyOnRecord !== undefined || state.idempotencyKeys[key] !== undefined) return false;
  return state.status === 'failed' || state.requestNumber > 1;
}

/**
 * The key to remember after a request answered as a duplicate (nothing appended): a key neither the
 * stream nor the record knows, on an order a new request could still follow. A paid order never gets
 * another request, so its duplicates answer "paid" under any key and write nothing.
 */
export function keyToRemember(command: RequestCharge, state: OrderState): KeyOnRecord | undefined {
  const key = command.idempotencyKey;
  if (key === undefined || command.keyOnRecord || state.idempotencyKeys[key] !== undefined) return undefined;
  if (!state.exists || state.status === 'paid') return undefined;
  return { requestNumber: state.requestNumber, requestFingerprint: chargeFingerprint(command) };
}

/** The charge-defining fields: what a duplicate must repeat exactly. */
export function chargeFingerprint(command: Pick<RequestCharge, 'amount' | 'currency' | 'customerId' | 'description'>): string {
  const canonical = JSON.stringify([command.amount, command.currency, command.customerId, command.description ?? null]);
  return createHash('sha256').update(canonical).digest('hex').slice(0, 32);
}

/** The idempotency key sent to the provider: derived from the order, never a fresh UUID. */
export const providerKeyFor = (orderId: string, requestNumber: number) => `idem-order-${orderId}-r${requestNumber}`;

export function decideRequestCharge(command: RequestCharge, state: OrderState): NewEvent<OrderEvent>[] {
  // Nothing is decided before the key's record is known: the caller looks it up and decides again.
  if (needsKeyOnRecord(command, state)) return [];
  const fingerprint = chargeFingerprint(command);
  const keyFingerprint = command.idempotencyKey
    ? (state.idempotencyKeys[command.idempotencyKey] ?? command.keyOnRecord?.requestFingerprint)
    : undefined;
  if (keyFingerprint !== undefined && keyFingerprint !== fingerprint) {
    throw new AppError('unprocessable', 'IDEMPOTENCY_KEY.REUSED', 'This Idempotency-Key was already used with a different request body', {
      orderId: command.orderId,
    });
  }
  // Same key, same body: the answer is whatever that request led to, even a decline.
  if (keyFingerprint === fingerprint) return [];
  if (state.exists && state.status !== 'failed') {
    if (state.requestFingerprint !== fingerprint) {
      throw new AppError(
        'unprocessable',
        'ORDER.CHARGE_MISMATCH',
        'This order already has a charge with a different amount, currency, customer or description',
        {
          orderId: command.orderId,
          recorded: {
            amount: state.amount,
            currency: state.currency,
            customerId: state.customerId,
            description: state.description ?? null,
          },
        },
      );
    }
    return [];
  }
  const requestNumber = state.requestNumber + 1;
  const event: ChargeRequested = {
    type: 'ChargeRequested',
    data: {
      orderId: command.orderId,
      amount: command.amount,
      currency: command.currency,
      customerId: command.customerId,
      ...(command.description !== undefined ? { description: command.description } : {}),
      requestFingerprint: fingerprint,
      ...(command.idempotencyKey ? { idempotencyKey: command.idempotencyKey } : {}),
      providerKey: providerKeyFor(command.orderId, requestNumber),
      requestNumber,
    },
  };
  // Two concurrent requests must conflict (the loser re-reads and replays), never be mistaken for
  // one retried append: the request id is part of the event id.
  return [{ event, key: `charge-requested/${requestNumber}/${command.requestId}` }];
}
