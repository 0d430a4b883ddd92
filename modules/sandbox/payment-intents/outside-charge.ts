import type { SandboxState } from '../sandbox-state';
import { newRequestId } from '../stripe-ids';
import { finalStatusEvent } from '../webhooks/stripe-event';
import { confirmPaymentIntent } from './confirm-payment-intent';
import { ORDER_ID_METADATA_KEY, type PaymentIntent } from './payment-intent';

export interface OutsideCharge {
  orderId: string;
  amount: number;
  currency: string;
  customer?: string;
}

/**
 * A charge made outside Idem (in the provider's dashboard, by another integration), with the order in
 * its metadata: how tests build the contradictory provider data the stop rules must catch (a second
 * succeeded intent, another amount). Its webhook goes out like any other.
 */
export function recordOutsideCharge(state: SandboxState, charge: OutsideCharge): PaymentIntent {
  const nowSeconds = Math.floor(state.clock() / 1000);
  const { intent } = confirmPaymentIntent(
    {
      confirm: true,
      amount: charge.amount,
      currency: charge.currency.toLowerCase(),
      customer: charge.customer ?? null,
      description: 'charged outside the API',
      metadata: { [ORDER_ID_METADATA_KEY]: charge.orderId },
      paymentMethod: 'pm_card_visa',
      paymentMethodTypes: ['card'],
      offSession: true,
      returnUrl: null,
      automaticPaymentMethods: null,
    },
    nowSeconds,
  );
  state.intents.add(intent);
  state.signals.emit('intent-committed', intent);
  const event = finalStatusEvent(intent, { id: newRequestId(), idempotencyKey: null }, nowSeconds);
  if (event) state.webhooks.publish(event);
  return intent;
}

/** The JSON body of `POST /_sandbox/charges`, checked; a message when it is not an OutsideCharge. */
export function parseOutsideCharge(body: unknown): { ok: true; charge: OutsideCharge } | { ok: false; message: string } {
  const b = (body ?? {}) as Record<string, unknown>;
  if (typeof b.orderId !== 'string' || b.orderId.length === 0) return { ok: false, message: 'orderId must be a non-empty string' };
  if (!Number.isSafeInteger(b.amount) || (b.amount as number) <= 0) return { ok: false, message: 'amount must be a positive integer' };
  if (typeof b.currency !== 'string' || !/^[A-Za-z]{3}$/.test(b.currency))
    return { ok: false, message: 'currency must be a 3-letter code' };
  if (b.customer !== undefined && typeof b.customer !== 'string') return { ok: false, message: 'customer must be a string' };
  return {
    ok: true,
    charge: {
      orderId: b.orderId,
      amount: b.amount as number,
      currency: b.currency,
      ...(b.customer !== undefined && { customer: b.customer as string }),
    },
  };
}
