import type { FormObject, FormValue } from '../api/form-encoding';
import { characterCount, overMaxLength } from '../api/string-limits';
import { emptyValue, invalidRequest, type StripeErrorResponse } from '../api/stripe-errors';

/** spec3.json (SPEC in string-limits.ts) `PostPaymentIntents`: `statement_descriptor` and `_suffix`, each `maxLength: 22`. */
const MAX_LENGTH = 22;

/**
 * "A complete statement descriptor — either a single static descriptor or the combination of a prefix and
 * suffix — must meet the following requirements: … Contains between 5 and 22 characters, inclusive. Contains
 * at least one letter (if using a prefix and a suffix, both require at least one letter). Doesn't contain
 * any of the following special characters: <, >, \, ', ", *." (docs.stripe.com/get-started/account/statement-descriptors,
 * "Statement descriptor requirements"). `statement_descriptor` is a complete descriptor; the suffix joins the
 * account's prefix, which the sandbox does not have, so only its own letter, characters and 22 are checked.
 */
const FORBIDDEN = /[<>\\'"*]/;
const LETTER = /[A-Za-z]/;
const MIN_COMPLETE_LENGTH = 5;

/**
 * The first problem of the create's statement descriptors. Neither can be unset on create (plain strings in
 * the spec, not the emptyable `anyOf [string, enum [""]]`), so `param=` is `parameter_invalid_empty` as for
 * `description`. Too long a `statement_descriptor` is answered in Stripe's own words, captured from a
 * PaymentIntent create: "The statement descriptor must be at most 22 characters. NOODLEFINGERS.WPCOMSTAGING.COM
 * is 30 characters long." (github.com/woocommerce/woocommerce-android/issues/7586, 2022; the same in
 * cartalyst/stripe-laravel#56 and sagemathinc/cocalc#5712). No capture was found for a too-long suffix (it gets
 * the spec-length wording, overMaxLength) nor for the character and letter rules, whose messages are the
 * sandbox's; none of them carries a `code`.
 */
export function statementDescriptorProblem(form: FormObject): StripeErrorResponse | undefined {
  return (
    descriptorProblem('statement_descriptor', form.statement_descriptor) ??
    descriptorProblem('statement_descriptor_suffix', form.statement_descriptor_suffix) ??
    cardDescriptorProblem(form)
  );
}

/**
 * "As of 02/01/2024, Stripe no longer supports the `statement_descriptor` parameter on the PaymentIntent API for
 * PaymentIntents in which one of the supported `payment_method_types` is `card`" (Stripe's announcement,
 * support.stripe.com/questions/use-of-the-statement-descriptor-parameter-on-paymentintents-for-card-charges, as
 * quoted in github.com/killbill/killbill-stripe-plugin/pull/118; stripe-node 23.1.0 `PaymentIntentCreateParams.
 * statement_descriptor`: "Setting this value for a card charge returns an error"). The answer is Stripe's as
 * captured in github.com/fluentform/fluentform/issues/384 and killbill/killbill-stripe-plugin#123 (2024). An intent
 * without `payment_method_types` takes cards here (automatic payment methods), so it is refused too, as users of
 * other methods met it (github.com/wyx2685/v2board/pull/145).
 */
function cardDescriptorProblem(form: FormObject): StripeErrorResponse | undefined {
  const types = form.payment_method_types;
  if (form.statement_descriptor === undefined || (Array.isArray(types) && !types.includes('card'))) return undefined;
  return invalidRequest(
    'The statement_descriptor parameter is not supported for the payment_method_type `card`. To continue supporting ' +
      'payment_method_type `card`, please pass in `statement_descriptor_suffix` or remove the `statement_descriptor` ' +
      'parameter altogether. Please see https://support.stripe.com/questions/use-of-the-statement-descriptor-parameter-on-paymentintents-for-card-charges ' +
      'for additional details.',
    'statement_descriptor',
  );
}

function descriptorProblem(
  param: 'statement_descriptor' | 'statement_descriptor_suffix',
  value: FormValue | undefined,
): StripeErrorResponse | undefined {
  if (value === undefined) return undefined;
  if (value === '') return emptyValue(param);
  if (typeof value !== 'string') return invalidRequest(`Invalid string: ${param}`, param, 'parameter_invalid_string');
  const length = characterCount(value);
  const complete = param === 'statement_descriptor';
  if (complete && length > MAX_LENGTH) {
    return invalidRequest(
      `The statement descriptor must be at most ${MAX_LENGTH} characters. ${value} is ${length} characters long.`,
      param,
    );
  }
  const tooLong = overMaxLength(param, value, MAX_LENGTH);
  if (tooLong) return tooLong;
  if (complete && length < MIN_COMPLETE_LENGTH) {
    return invalidRequest(
      `The statement descriptor must be at least ${MIN_COMPLETE_LENGTH} characters. ${value} is ${length} characters long.`,
      param,
    );
  }
  if (FORBIDDEN.test(value)) return invalidRequest(`The ${param} cannot contain any of the characters <, >, \\, ', " or *.`, param);
  if (!LETTER.test(value)) return invalidRequest(`The ${param} must contain at least one letter.`, param);
  return undefined;
}
