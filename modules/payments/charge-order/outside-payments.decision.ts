/**
 * A payment made outside Idem whose webhook came before the order existed (receive-webhook answered
 * `unknown_order` and remembered it): when the order's charge is then requested, the customer may
 * already have paid. Charging again would be a second successful charge for one order (DESIGN §9.1),
 * so the worker hands the order to a person instead, naming each such payment — as a webhook arriving
 * after the request does (webhook.decision.ts), so the check before a resolution retrieves it and
 * "failed" is refused while it stands. Pure: the remembered payments come in as data.
 */
import type { ChargeNeedsReview } from '../order.events';
import type { OrderState } from '../order.state';

/** A succeeded payment for an order id that no order of ours had when its webhook arrived. */
export interface OutsidePayment {
  paymentIntentId: string;
  /** Minor units, as the provider reported them; absent only if the delivery did not say. */
  amount?: number;
  currency?: string;
  /** When its webhook arrived (ISO 8601). */
  receivedAt: string;
}

/** Where the worker finds them (WebhookDeliveries, over its own table and the retention archive). */
export interface OutsidePayments {
  outsidePaymentsFor(orderId: string): Promise<OutsidePayment[]>;
}

/**
 * One review per remembered payment the order's history does not name yet. A payment already named
 * (an earlier request was stopped by it, or support recorded it in a resolution) is a person's
 * decision already and does not stop a later request.
 */
export function reviewsForOutsidePayments(state: OrderState, payments: readonly OutsidePayment[]): ChargeNeedsReview[] {
  return payments
    .filter((payment) => !state.namedPaymentIntentIds.includes(payment.paymentIntentId))
    .map((payment) => ({
      type: 'ChargeNeedsReview',
      data: {
        orderId: state.orderId,
        paymentIntentId: payment.paymentIntentId,
        reason:
          `provider reported payment ${payment.paymentIntentId}${amountOf(payment)} for this order as succeeded at ${payment.receivedAt}, ` +
          `before Idem knew the order (a charge made outside Idem), so Idem did not charge the customer again: ` +
          `if it pays this order, resolve as paid to record it`,
      },
    }));
}

const amountOf = ({ amount, currency }: OutsidePayment) =>
  amount === undefined ? '' : ` of ${amount}${currency ? ` ${currency}` : ''} in minor units`;
