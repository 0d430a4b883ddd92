import type { FormObject } from '../api/form-encoding';
import { firstOverMaxLength, outsideEnum } from '../api/string-limits';
import { emptyValue, type StripeErrorResponse } from '../api/stripe-errors';

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

/**
 * The `enum`s of the create parameters the sandbox takes, as spec3.json (SPEC) lists them and stripe-node
 * 23.1.0 (API 2026-10-28.endive) types them in `PaymentIntentCreateParams`: `capture_method` automatic,
 * automatic_async (added after the spec read), manual; `confirmation_method` automatic, manual;
 * `setup_future_usage` off_session, on_session. (`off_session`'s strings one_off and recurring:
 * create-params.ts.) Only `automatic` of the first two is modelled: create-params.ts refuses the others
 * with its own message, as something the sandbox does not do, not as something Stripe refuses.
 */
const CREATE_ENUMS = {
  capture_method: ['automatic', 'automatic_async', 'manual'],
  confirmation_method: ['automatic', 'manual'],
  setup_future_usage: ['off_session', 'on_session'],
} as const;

/** The first create parameter outside its `enum`, refused as Stripe refuses it (outsideEnum). */
export function createParamOutsideEnum(form: FormObject): StripeErrorResponse | undefined {
  for (const [param, allowed] of Object.entries(CREATE_ENUMS)) {
    const problem = outsideEnum(param, form[param], allowed);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * Create parameters the sandbox takes that cannot be unset: plain strings or enums in spec3.json (SPEC), not the
 * emptyable `anyOf [..., enum [""]]`, and typed without `Emptyable<>` in stripe-node 23.1.0's
 * `PaymentIntentCreateParams`. Stripe reads `param=` as "unset it" and refuses these with
 * `parameter_invalid_empty` (emptyValue), before their enum is looked at. (`customer`, `description`,
 * `payment_method`, `return_url`: create-params.ts; the statement descriptors: statement-descriptor.ts.)
 */
const NOT_EMPTYABLE = ['receipt_email', 'transfer_group', 'mandate', 'capture_method', 'confirmation_method', 'setup_future_usage'];

/** The first of those sent empty. */
export function createParamEmpty(form: FormObject): StripeErrorResponse | undefined {
  const empty = NOT_EMPTYABLE.find((param) => form[param] === '');
  return empty === undefined ? undefined : emptyValue(empty);
}
