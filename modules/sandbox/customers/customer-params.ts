import type { FormObject, FormValue } from '../api/form-encoding';
import { metadataProblem } from '../api/metadata';
import { firstOverMaxLength, overMaxLength } from '../api/string-limits';
import { invalidRequest, type StripeErrorResponse } from '../api/stripe-errors';
import type { StoredCustomer } from './customers.store';

export type CustomerFields = Partial<Omit<StoredCustomer, 'id' | 'created'>>;

const STRING_FIELDS = { email: 'email', name: 'name', description: 'description' } as const;

/**
 * `maxLength` of those strings in spec3.json (SPEC in api/string-limits.ts), `PostCustomers` and
 * `PostCustomersCustomer` alike: `email` 512, `name` 256, `description` 5000,
 * `invoice_settings.default_payment_method` 5000.
 */
const MAX_LENGTHS = { email: 512, name: 256, description: 5000 } as const;
const MAX_DEFAULT_PAYMENT_METHOD_LENGTH = 5000;

/**
 * The parameters of `POST /v1/customers` and `POST /v1/customers/:id` the sandbox models (spec3.json
 * `PostCustomers`, `PostCustomersCustomer`): `email`, `name`, `description`, `metadata[…]` and
 * `invoice_settings[default_payment_method]`; an empty string unsets a field, as at Stripe. Too long a
 * string (MAX_LENGTHS) or metadata over Stripe's limits (api/metadata.ts) is refused. Any other
 * parameter gets 400 `parameter_unknown`.
 */
export function parseCustomerParams(
  form: FormObject,
  currentMetadata: Record<string, string> = {},
): { ok: true; value: CustomerFields } | { ok: false; error: StripeErrorResponse } {
  const fields: CustomerFields = {};
  for (const [name, value] of Object.entries(form)) {
    if (name in STRING_FIELDS) {
      if (typeof value !== 'string') return fail(invalidString(name));
      const tooLong = overMaxLength(name, value, MAX_LENGTHS[name as keyof typeof MAX_LENGTHS]);
      if (tooLong) return fail(tooLong);
      fields[STRING_FIELDS[name as keyof typeof STRING_FIELDS]] = value === '' ? null : value;
    } else if (name === 'metadata') {
      const metadata = stringHash(value);
      if (!metadata) return fail(invalidRequest('Invalid hash', 'metadata', 'parameter_invalid_hash'));
      const merged = mergedMetadata(currentMetadata, metadata, value === '');
      const problem = metadataProblem(merged);
      if (problem) return fail(problem);
      fields.metadata = merged;
    } else if (name === 'invoice_settings') {
      const settings = stringHash(value);
      const unknown = settings && Object.keys(settings).find((key) => key !== 'default_payment_method');
      if (!settings || unknown)
        return fail(invalidRequest(`Received unknown parameter: invoice_settings[${unknown ?? ''}]`, 'invoice_settings'));
      const param = 'invoice_settings[default_payment_method]';
      const tooLong = overMaxLength(param, settings.default_payment_method, MAX_DEFAULT_PAYMENT_METHOD_LENGTH);
      if (tooLong) return fail(tooLong);
      if ('default_payment_method' in settings) fields.defaultPaymentMethod = settings.default_payment_method || null;
    } else if (name === 'expand') {
      // spec3.json `PostCustomers`/`PostCustomersCustomer`: `expand`, an array of strings (maxLength 5000 each);
      // taken with no effect, as on a PaymentIntent create.
      const tooLong = Array.isArray(value)
        ? firstOverMaxLength({ expand: value }, { expand: 5000 })
        : invalidRequest('Invalid array', name);
      if (tooLong) return fail(tooLong);
    } else {
      return fail(invalidRequest(`Received unknown parameter: ${name}`, name, 'parameter_unknown'));
    }
  }
  return { ok: true, value: fields };
}

/**
 * Metadata is updated key by key, as stripe-node 23.1.0 documents `CustomerCreateParams.metadata` and
 * `CustomerUpdateParams.metadata`: "Individual keys can be unset by posting an empty value to them. All keys can be
 * unset by posting an empty value to `metadata`." Keys not sent are kept; the limits hold for the result.
 */
function mergedMetadata(current: Record<string, string>, sent: Record<string, string>, clearAll: boolean): Record<string, string> {
  const merged: Record<string, string> = clearAll ? {} : { ...current };
  for (const [key, value] of Object.entries(sent)) {
    if (value === '') delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

function stringHash(value: FormValue | undefined): Record<string, string> | undefined {
  if (value === '') return {};
  if (typeof value !== 'object' || Array.isArray(value)) return undefined;
  if (Object.values(value).some((entry) => typeof entry !== 'string')) return undefined;
  return value as Record<string, string>;
}

function invalidString(param: string): StripeErrorResponse {
  return invalidRequest(`Invalid string: ${param}`, param, 'parameter_invalid_string');
}

function fail(error: StripeErrorResponse): { ok: false; error: StripeErrorResponse } {
  return { ok: false, error };
}
