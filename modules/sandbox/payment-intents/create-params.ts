import type { FormObject, FormValue } from '../api/form-encoding';
import { invalidRequest, missingResource, type StripeErrorResponse } from '../api/stripe-errors';

/** A validated `POST /v1/payment_intents` request. Only confirm=true creations are supported. */
export interface CreateIntentRequest {
  amount: number;
  currency: string;
  customer: string | null;
  description: string | null;
  metadata: Record<string, string>;
  paymentMethod: string;
  paymentMethodTypes: string[];
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: StripeErrorResponse };

/** Accepted so that a real adapter's usual options do not break; they do not change the outcome. */
const TOLERATED_PARAMS = [
  'off_session',
  'receipt_email',
  'statement_descriptor',
  'statement_descriptor_suffix',
  'expand',
  'error_on_requires_action',
  'automatic_payment_methods',
  'return_url',
];
const KNOWN_PARAMS = new Set([
  'amount',
  'currency',
  'customer',
  'description',
  'metadata',
  'payment_method',
  'payment_method_types',
  'confirm',
  'capture_method',
  ...TOLERATED_PARAMS,
]);
const MAX_AMOUNT = 99_999_999;

export function parseCreateParams(form: FormObject): Parsed<CreateIntentRequest> {
  const unknown = Object.keys(form).find((name) => !KNOWN_PARAMS.has(name));
  if (unknown) return fail(invalidRequest(`Received unknown parameter: ${unknown}`, unknown, 'parameter_unknown'));

  if (form.amount === undefined) return fail(missingParam('amount'));
  if (typeof form.amount !== 'string' || !/^-?\d+$/.test(form.amount)) {
    return fail(invalidRequest(`Invalid integer: ${String(form.amount)}`, 'amount', 'parameter_invalid_integer'));
  }
  const amount = Number(form.amount);
  if (amount < 1) return fail(invalidRequest('This value must be greater than or equal to 1.', 'amount', 'amount_too_small'));
  if (amount > MAX_AMOUNT) return fail(invalidRequest(`Amount must be no more than ${MAX_AMOUNT}.`, 'amount', 'amount_too_large'));

  if (form.currency === undefined || form.currency === '') return fail(missingParam('currency'));
  if (typeof form.currency !== 'string' || !/^[a-zA-Z]{3}$/.test(form.currency)) {
    return fail(invalidRequest(`Invalid currency: ${String(form.currency)}.`, 'currency', 'parameter_invalid_string'));
  }

  if (form.confirm !== 'true') {
    return fail(invalidRequest('This sandbox only creates PaymentIntents with confirm=true.', 'confirm', 'parameter_invalid_string'));
  }
  if (form.capture_method !== undefined && form.capture_method !== 'automatic') {
    return fail(invalidRequest('This sandbox only supports capture_method=automatic.', 'capture_method', 'parameter_invalid_string'));
  }

  if (form.payment_method === undefined || form.payment_method === '') return fail(missingParam('payment_method'));
  if (typeof form.payment_method !== 'string') return fail(invalidString('payment_method'));
  if (!form.payment_method.startsWith('pm_')) return fail(missingResource('PaymentMethod', form.payment_method, 'payment_method', 400));

  const customer = optionalString(form.customer);
  if (customer === false) return fail(invalidString('customer'));
  const description = optionalString(form.description);
  if (description === false) return fail(invalidString('description'));
  const metadata = parseMetadata(form.metadata);
  if (!metadata.ok) return metadata;
  const paymentMethodTypes = parseStringList(form.payment_method_types ?? ['card']);
  if (!paymentMethodTypes) return fail(invalidRequest('Invalid array', 'payment_method_types', 'parameter_invalid_array'));

  return {
    ok: true,
    value: {
      amount,
      currency: form.currency.toLowerCase(),
      customer,
      description,
      metadata: metadata.value,
      paymentMethod: form.payment_method,
      paymentMethodTypes,
    },
  };
}

function parseMetadata(value: FormValue | undefined): Parsed<Record<string, string>> {
  if (value === undefined || value === '') return { ok: true, value: {} };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return fail(invalidRequest('Invalid hash', 'metadata', 'parameter_invalid_hash'));
  }
  const metadata: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (typeof entry !== 'string') return fail(invalidString(`metadata[${key}]`));
    if (key.length > 40) return fail(invalidRequest('Metadata keys can be at most 40 characters.', `metadata[${key}]`));
    if (entry.length > 500) return fail(invalidRequest('Metadata values can be at most 500 characters.', `metadata[${key}]`));
    metadata[key] = entry;
  }
  return { ok: true, value: metadata };
}

function parseStringList(value: FormValue): string[] | undefined {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) return undefined;
  return value as string[];
}

/** `null` when absent or empty (Stripe's way of unsetting), `false` when not a string. */
function optionalString(value: FormValue | undefined): string | null | false {
  if (value === undefined || value === '') return null;
  return typeof value === 'string' ? value : false;
}

function missingParam(param: string): StripeErrorResponse {
  return invalidRequest(`Missing required param: ${param}.`, param, 'parameter_missing');
}

function invalidString(param: string): StripeErrorResponse {
  return invalidRequest(`Invalid string: ${param}`, param, 'parameter_invalid_string');
}

function fail<T>(error: StripeErrorResponse): Parsed<T> {
  return { ok: false, error };
}
