import Stripe from 'stripe';
import { classifyLookupError } from './classify-stripe-error';
import type { SavedPaymentMethod } from './payment-gateway.port';

/**
 * The card to charge off-session, found the way Stripe's guide to charging a saved card finds it
 * (docs.stripe.com/payments/save-and-reuse, "Charge the saved payment method later": "To find a
 * payment method to charge, list the payment methods associated with your customer"), with the
 * customer's chosen default first: `invoice_settings.default_payment_method`, "ID of a payment method
 * that's attached to the customer, to be used as the customer's default payment method" (spec3.json
 * `invoice_setting_customer_setting`). Else the newest card the list holds (`GET /v1/payment_methods`,
 * `customer` and `type=card`, newest first). Neither, or no such customer: nothing can be charged.
 */
export async function lookUpSavedPaymentMethod(stripe: Stripe, customerId: string): Promise<SavedPaymentMethod> {
  // The id goes into the URL path (GET /v1/customers/{id}); `.` and `..` there are path steps, which
  // a proxy or the provider may resolve to another URL. No Stripe customer id is made of dots only.
  if (/^\.+$/.test(customerId)) return { kind: 'rejected', reason: `no such customer: ${customerId} cannot be a customer id` };
  try {
    const customer = await stripe.customers.retrieve(customerId);
    // A deleted customer is still retrievable, as `{id, object: 'customer', deleted: true}` (spec3.json `deleted_customer`).
    if (customer.deleted) return { kind: 'rejected', reason: `customer ${customerId} is deleted at the provider` };
    const chosen = customer.invoice_settings?.default_payment_method;
    if (chosen) return { kind: 'found', paymentMethodId: typeof chosen === 'string' ? chosen : chosen.id };
    const cards = await stripe.paymentMethods.list({ customer: customerId, type: 'card', limit: 1 });
    if (cards.data[0]) return { kind: 'found', paymentMethodId: cards.data[0].id };
    return { kind: 'rejected', reason: `no saved card: customer ${customerId} has no default payment method and no card attached` };
  } catch (error) {
    return classifyLookupError(error);
  }
}
