import { createHash } from 'node:crypto';
import type { CardPaymentMethodObject, PaymentMethodObject, SepaDebitPaymentMethodObject } from './payment-intent';
import { delayedSepaDebit } from './test-payment-methods';

type Common = Omit<CardPaymentMethodObject, 'card' | 'type'>;

/**
 * The full PaymentMethod object Stripe embeds in a decline (`last_payment_error.payment_method`) and
 * lists for a customer, with every field spec3.json `payment_method` marks required (`billing_details`,
 * `created`, `livemode`, …). `testMethod` is the Stripe test method behind `id` (the same id, or the one a
 * saved PaymentMethod was made from): a Visa test card behind every `pm_card_…` name, as Stripe's test
 * methods are, and the test IBAN's account behind a SEPA Direct Debit token.
 */
export function paymentMethodObject(id: string, customer: string | null, nowSeconds: number, testMethod = id): PaymentMethodObject {
  const common: Common = {
    id,
    object: 'payment_method',
    billing_details: {
      address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null },
      email: null,
      name: null,
      phone: null,
      tax_id: null,
    },
    created: nowSeconds,
    customer,
    livemode: false,
    metadata: {},
  };
  const fingerprint = createHash('sha256').update(id).digest('base64url').slice(0, 16);
  const debit = delayedSepaDebit(testMethod);
  if (debit) return sepaDebitObject(common, debit.iban, fingerprint);
  return {
    ...common,
    card: {
      brand: 'visa',
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: null },
      country: 'US',
      display_brand: 'visa',
      exp_month: 12,
      exp_year: 2034,
      fingerprint,
      funding: 'credit',
      generated_from: null,
      last4: '4242',
      networks: { available: ['visa'], preferred: null },
      regulated_status: 'unregulated',
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    type: 'card',
  };
}

/** spec3.json `payment_method_sepa_debit`; a German IBAN holds the bank code in its digits 5 to 12. */
function sepaDebitObject(common: Common, iban: string, fingerprint: string): SepaDebitPaymentMethodObject {
  return {
    ...common,
    sepa_debit: {
      bank_code: iban.slice(4, 12),
      branch_code: null,
      country: iban.slice(0, 2),
      fingerprint,
      generated_from: { charge: null, setup_attempt: null },
      last4: iban.slice(-4),
    },
    type: 'sepa_debit',
  };
}
