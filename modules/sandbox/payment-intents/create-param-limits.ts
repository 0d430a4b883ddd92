import type { FormObject } from '../api/form-encoding';
import { firstOverMaxLength } from '../api/string-limits';
import type { StripeErrorResponse } from '../api/stripe-errors';

/**
 * `maxLength` of the string parameters of `POST /v1/payment_intents` the sandbox takes, as spec3.json
 * (SPEC in string-limits.ts) sets them in `paths['/v1/payment_intents'].post.requestBody` (schema
 * properties of that name): `description` 1000; `customer`, `payment_method`, `mandate`, and each item
 * of `payment_method_types` and `expand` 5000. `return_url`, `receipt_email` and `transfer_group` carry no
 * `maxLength` there, so none is enforced. (`statement_descriptor` and `_suffix`: statement-descriptor.ts;
 * `metadata`: api/metadata.ts.)
 */
const CREATE_MAX_LENGTHS = {
  description: 1000,
  customer: 5000,
  payment_method: 5000,
  mandate: 5000,
  payment_method_types: 5000,
  expand: 5000,
};

/** The first create parameter longer than the spec allows, refused as Stripe refuses it (overMaxLength). */
export function createParamTooLong(form: FormObject): StripeErrorResponse | undefined {
  return firstOverMaxLength(form, CREATE_MAX_LENGTHS);
}
