import { newEventId } from '../stripe-ids';
import type { PaymentIntent } from '../payment-intents/payment-intent';

/** The Stripe API version the installed stripe-node (v23) pins; events carry it like real ones do. */
const EVENT_API_VERSION = '2026-10-28.endive';

export type PaymentIntentEventType = 'payment_intent.succeeded' | 'payment_intent.payment_failed';

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: PaymentIntent };
  livemode: false;
  pending_webhooks: number;
  request: { id: string; idempotency_key: string | null };
  type: PaymentIntentEventType;
}

/**
 * The event Stripe emits when a confirmation reaches its final status; undefined while the intent is
 * still `processing` or `requires_action` (Stripe's `payment_intent.processing` / `.requires_action`
 * events are not modelled: Idem acts only on final statuses).
 */
export function finalStatusEvent(
  intent: PaymentIntent,
  request: { id: string; idempotencyKey: string | null },
  nowSeconds: number,
): StripeEvent | undefined {
  if (intent.status !== 'succeeded' && intent.status !== 'requires_payment_method') return undefined;
  return {
    id: newEventId(),
    object: 'event',
    api_version: EVENT_API_VERSION,
    created: nowSeconds,
    data: { object: intent },
    livemode: false,
    pending_webhooks: 1,
    request: { id: request.id, idempotency_key: request.idempotencyKey },
    type: intent.status === 'succeeded' ? 'payment_intent.succeeded' : 'payment_intent.payment_failed',
  };
}
