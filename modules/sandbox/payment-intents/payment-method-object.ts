import { createHash } from 'node:crypto';
import type { PaymentMethodObject } from './payment-intent';

/**
 * The full PaymentMethod object Stripe embeds in a decline (`last_payment_error.payment_method`),
 * with every field spec3.json `payment_method` marks required (`billing_details`, `created`,
 * `livemode`, …) and a Visa test card behind every `pm_card_…` name, as Stripe's test methods are.
 */
export function paymentMethodObject(id: string, customer: string | null, nowSeconds: number): PaymentMethodObject {
  return {
    id,
    object: 'payment_method',
    billing_details: {
      address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null },
      email: null,
      name: null,
      phone: null,
      tax_id: null,
    },
    card: {
      brand: 'visa',
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: null },
      country: 'US',
      display_brand: 'visa',
      exp_month: 12,
      exp_year: 2034,
      fingerprint: createHash('sha256').update(id).digest('base64url').slice(0, 16),
      funding: 'credit',
      generated_from: null,
      last4: '4242',
      networks: { available: ['visa'], preferred: null },
      regulated_status: 'unregulated',
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: nowSeconds,
    customer,
    livemode: false,
    metadata: {},
    type: 'card',
  };
}
