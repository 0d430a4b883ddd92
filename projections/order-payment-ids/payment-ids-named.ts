/**
 * The provider payment ids an order event names. Structured fields first (the intent and charge of a
 * success, a decline's intent, the payment support recorded); then ids the provider's answers put in
 * the texts we keep — a review reason naming both payments the provider holds, a pending intent in an
 * unknown outcome's error — because no field carries those, in events recorded before and after this.
 */
import type { OrderEvent } from '../../modules/payments/order.events';

/** Stripe-shaped ids of a PaymentIntent, a Charge or a Payment (`py_`, a charge of other methods). */
const PAYMENT_ID = /\b(?:pi|ch|py)_[A-Za-z0-9]+/g;

export function paymentIdsNamedBy(event: OrderEvent): string[] {
  const ids = [...fieldsOf(event), ...textsOf(event).flatMap((text) => text.match(PAYMENT_ID) ?? [])];
  return [...new Set(ids.filter((id): id is string => Boolean(id)))];
}

function fieldsOf(event: OrderEvent): Array<string | undefined> {
  switch (event.type) {
    case 'ChargeSucceeded':
      return [event.data.paymentIntentId, event.data.providerChargeId];
    case 'ChargeFailed':
      return [event.data.paymentIntentId];
    case 'ChargeReviewResolved':
      return [event.data.payment?.paymentIntentId, event.data.payment?.providerChargeId];
    case 'ChargeOutcomeUnknown':
    case 'ChargeNeedsReview':
      return [event.data.paymentIntentId];
    default:
      return [];
  }
}

/** Texts written from provider answers (never support's own note: a person's words may name anything). */
function textsOf(event: OrderEvent): string[] {
  switch (event.type) {
    case 'ChargeFailed':
      return [event.data.reason];
    case 'ChargeOutcomeUnknown':
      return [event.data.error];
    case 'ChargeNeedsReview':
      return [event.data.reason];
    default:
      return [];
  }
}
