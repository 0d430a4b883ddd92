import { DUPLICATE_CHARGE_DECLINE } from './payment-intent';

/**
 * Which confirmations the sandbox declines, decided only by the request so that tests can ask for a
 * decline on purpose (documented in modules/sandbox/README.md):
 * - the payment methods below, named after Stripe's own test payment methods;
 * - any amount whose last two digits are 02 (e.g. 1002, 4502): a generic decline;
 * - any confirmation for an order that already holds a succeeded intent: `duplicate_transaction`
 *   (at most one succeeded intent per order).
 * Everything else succeeds.
 */
const DECLINING_PAYMENT_METHODS: Record<string, string> = {
  pm_card_chargeDeclined: 'generic_decline',
  pm_card_visa_chargeDeclined: 'generic_decline',
  pm_card_chargeDeclinedInsufficientFunds: 'insufficient_funds',
  pm_card_visa_chargeDeclinedInsufficientFunds: 'insufficient_funds',
  pm_card_chargeDeclinedLostCard: 'lost_card',
  pm_card_visa_chargeDeclinedLostCard: 'lost_card',
  pm_card_chargeDeclinedStolenCard: 'stolen_card',
  pm_card_visa_chargeDeclinedStolenCard: 'stolen_card',
  pm_card_chargeDeclinedFraudulent: 'fraudulent',
  pm_card_visa_chargeDeclinedFraudulent: 'fraudulent',
};

const DECLINING_AMOUNT_ENDING = 2;

export interface Decline {
  declineCode: string;
  message: string;
}

export function declineFor(request: { amount: number; paymentMethod: string }, orderAlreadyCharged = false): Decline | undefined {
  if (orderAlreadyCharged) {
    return { declineCode: DUPLICATE_CHARGE_DECLINE, message: 'This order has already been charged: a duplicate transaction was refused.' };
  }
  const byPaymentMethod = DECLINING_PAYMENT_METHODS[request.paymentMethod];
  if (byPaymentMethod) return { declineCode: byPaymentMethod, message: messageFor(byPaymentMethod) };
  if (request.amount % 100 === DECLINING_AMOUNT_ENDING) {
    return { declineCode: 'generic_decline', message: messageFor('generic_decline') };
  }
  return undefined;
}

function messageFor(declineCode: string): string {
  return declineCode === 'insufficient_funds' ? 'Your card has insufficient funds.' : 'Your card was declined.';
}
