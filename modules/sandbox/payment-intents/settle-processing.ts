import type { SandboxState } from '../sandbox-state';
import { newRequestId } from '../stripe-ids';
import { finalStatusEvent } from '../webhooks/stripe-event';
import type { PaymentIntent } from './payment-intent';
import { paymentMethodObject } from './payment-method-object';
import { delayedSepaDebit, type DebitOutcome } from './test-payment-methods';

export type SettleOutcome = DebitOutcome;

/**
 * A `processing` intent reaches its final status, as a bank debit does days later at Stripe
 * (spec3.json `payment_intent.status`: `processing` → `succeeded`, or back to
 * `requires_payment_method` when the payment fails). Which one is not the caller's choice: Stripe's
 * test token decides it (`pm_successDelayed_de` succeeds, `pm_failedDelayed_de` fails, see
 * test-payment-methods.ts), so a `requested` outcome that contradicts the token is refused rather than
 * obeyed. Its webhook goes out like any other.
 */
export function settleProcessing(state: SandboxState, intentId: string, requested?: SettleOutcome): PaymentIntent | { error: string } {
  const intent = state.intents.get(intentId);
  if (!intent) return { error: `no payment intent ${intentId}` };
  if (intent.status !== 'processing' || intent.payment_method === null)
    return { error: `payment intent ${intentId} is ${intent.status}, not processing` };
  const testMethod = state.customers.paymentMethod(intent.payment_method)?.testMethod ?? intent.payment_method;
  const outcome = delayedSepaDebit(testMethod)?.outcome;
  if (outcome === undefined) return { error: `payment intent ${intentId} was not paid with a delayed SEPA Direct Debit test token` };
  if (requested !== undefined && requested !== outcome)
    return { error: `payment intent ${intentId} is paid with ${testMethod}, which Stripe settles as ${outcome}, not ${requested}` };
  const nowSeconds = Math.floor(state.clock() / 1000);
  const settled: PaymentIntent =
    outcome === 'succeeded'
      ? { ...intent, status: 'succeeded', amount_received: intent.amount }
      : {
          ...intent,
          status: 'requires_payment_method',
          payment_method: null,
          last_payment_error: {
            type: 'card_error',
            code: 'card_declined',
            decline_code: 'generic_decline',
            message: 'Your card was declined.',
            charge: intent.latest_charge ?? '',
            doc_url: 'https://stripe.com/docs/error-codes/card-declined',
            payment_method: paymentMethodObject(intent.payment_method, intent.customer, nowSeconds, testMethod),
          },
        };
  state.intents.update(settled);
  state.signals.emit('intent-committed', settled);
  const event = finalStatusEvent(settled, { id: newRequestId(), idempotencyKey: null }, nowSeconds);
  if (event) state.webhooks.publish(event);
  return settled;
}
