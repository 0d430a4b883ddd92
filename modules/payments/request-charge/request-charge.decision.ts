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

export interface RequestCharge {
  orderId: string;
  amount: number;
  currency: string;
  customerId: string;
  description?: string;
  idempotencyKey?: string;
  /** The HTTP request's id: a proxy retrying the very same request re-appends the same event. */
  requestId: string;
}

/** The charge-defining fields: what a duplicate must repeat exactly. */
export function chargeFingerprint(command: Pick<RequestCharge, 'amount' | 'currency' | 'customerId' | 'description'>): string {
  const canonical = JSON.stringify([command.amount, command.currency, command.customerId, command.description ?? null]);
  return createHash('sha256').update(canonical).digest('hex').slice(0, 32);
}

/** The idempotency key sent to the provider: derived from the order, never a fresh UUID. */
export const providerKeyFor = (orderId: string, requestNumber: number) => `idem-order-${orderId}-r${requestNumber}`;

export function decideRequestCharge(command: RequestCharge, state: OrderState): NewEvent<OrderEvent>[] {
  const fingerprint = chargeFingerprint(command);
  const keyFingerprint = command.idempotencyKey ? state.idempotencyKeys[command.idempotencyKey] : undefined;
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
