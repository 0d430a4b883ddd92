import type { StoredCustomer } from './customers.store';

/**
 * The Customer object with the fields spec3.json `customer` marks required (`id`, `object`, `created`,
 * `livemode`) plus those an integration reads; `invoice_settings.default_payment_method` is the
 * saved card Idem charges ("ID of a payment method that's attached to the customer, to be used as the
 * customer's default payment method", spec3.json `invoice_setting_customer_setting`).
 */
export function customerObject(customer: StoredCustomer) {
  return {
    id: customer.id,
    object: 'customer' as const,
    address: null,
    balance: 0,
    created: customer.created,
    currency: null,
    default_source: null,
    delinquent: false,
    description: customer.description,
    discount: null,
    email: customer.email,
    invoice_prefix: customer.id.slice(4, 12).toUpperCase(),
    invoice_settings: { custom_fields: null, default_payment_method: customer.defaultPaymentMethod, footer: null },
    livemode: false,
    metadata: customer.metadata,
    name: customer.name,
    next_invoice_sequence: 1,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none' as const,
  };
}
