import type { FormObject, FormValue } from '../api/form-encoding';
import { metadataProblem } from '../api/metadata';
import { emptyValue, invalidRequest, missingResource, type StripeErrorResponse } from '../api/stripe-errors';
import { amountStepProblem, maximumAmountOf } from './amount-steps';
import { createParamEmpty, createParamOutsideEnum, createParamTooLong } from './create-param-limits';
import { belowMinimumCharge } from './minimum-charge';
import { statementDescriptorProblem } from './statement-descriptor';

/** A validated `POST /v1/payment_intents` request. */
export interface CreateIntentRequest {
  /** `confirm=true`: created and confirmed in one call. Otherwise the intent waits for a confirm. */
  confirm: boolean;
  amount: number;
  currency: string;
  customer: string | null;
  description: string | null;
  metadata: Record<string, string>;
  /** Required to confirm; a creation without confirm may leave it out. */
  paymentMethod: string | null;
  paymentMethodTypes: string[];
  /** The customer is not present (a background charge of a saved card): no redirect, no 3-D Secure challenge. */
  offSession: boolean;
  returnUrl: string | null;
  automaticPaymentMethods: { enabled: boolean; allow_redirects?: 'always' | 'never' } | null;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: StripeErrorResponse };

/**
 * Real create parameters (spec3.json, `PostPaymentIntents` request body) that are accepted and do not
 * change the outcome here.
 */
const TOLERATED_PARAMS = [
  'receipt_email',
  // Checked (statement-descriptor.ts), then shown nowhere: the sandbox prints no statements.
  'statement_descriptor',
  'statement_descriptor_suffix',
  'expand',
  'error_on_requires_action',
  'setup_future_usage',
  'payment_method_options',
  'shipping',
  'transfer_group',
  // SEPA Direct Debit's mandate (spec3.json: "ID of the mandate that's used for this payment"; "details
  // about the Mandate to create"); mandates are not modelled, see README.md.
  'mandate',
  'mandate_data',
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
  'confirmation_method',
  'off_session',
  'return_url',
  'automatic_payment_methods',
  ...TOLERATED_PARAMS,
]);
/**
 * Parameters that only mean something when the create confirms: spec3.json `PostPaymentIntents` says of
 * each "This parameter can only be used with `confirm=true`." Stripe refuses them without confirm (400,
 * `param` the parameter); the message is modelled on that sentence, Stripe's docs do not print its own.
 */
const CONFIRM_ONLY_PARAMS = ['off_session', 'return_url', 'error_on_requires_action', 'mandate', 'mandate_data'] as const;

export function parseCreateParams(form: FormObject): Parsed<CreateIntentRequest> {
  const unknown = Object.keys(form).find((name) => !KNOWN_PARAMS.has(name));
  if (unknown) return fail(invalidRequest(`Received unknown parameter: ${unknown}`, unknown, 'parameter_unknown'));
  // The spec's own limits first (create-param-limits.ts, statement-descriptor.ts), then the rules below.
  const outOfSpec = createParamTooLong(form) ?? createParamEmpty(form) ?? createParamOutsideEnum(form) ?? statementDescriptorProblem(form);
  if (outOfSpec) return fail(outOfSpec);

  if (form.amount === undefined) return fail(missingParam('amount'));
  if (typeof form.amount !== 'string' || !/^-?\d+$/.test(form.amount)) {
    return fail(invalidRequest(`Invalid integer: ${String(form.amount)}`, 'amount', 'parameter_invalid_integer'));
  }
  const amount = Number(form.amount);
  if (amount < 1) return fail(invalidRequest('This value must be greater than or equal to 1.', 'amount', 'amount_too_small'));

  if (form.currency === undefined || form.currency === '') return fail(missingParam('currency'));
  if (typeof form.currency !== 'string' || !/^[a-zA-Z]{3}$/.test(form.currency)) {
    return fail(invalidRequest(`Invalid currency: ${String(form.currency)}.`, 'currency', 'parameter_invalid_string'));
  }
  const currency = form.currency.toLowerCase();
  // The limit is per currency (amount-steps.ts); the message is the sandbox's, Stripe's docs do not print one.
  const maximum = maximumAmountOf(currency);
  if (amount > maximum) return fail(invalidRequest(`Amount must be no more than ${maximum}.`, 'amount', 'amount_too_large'));
  const tooSmall = belowMinimumCharge(amount, currency) ?? amountStepProblem(amount, currency);
  if (tooSmall) return fail(tooSmall);

  const confirm = parseBoolean(form.confirm, 'confirm');
  if (typeof confirm !== 'boolean') return confirm;
  for (const param of ['capture_method', 'confirmation_method'] as const) {
    if (form[param] !== undefined && form[param] !== 'automatic')
      return fail(invalidRequest(`This sandbox only supports ${param}=automatic.`, param, 'parameter_invalid_string'));
  }

  const paymentMethodParam = optionalString(form, 'payment_method');
  if (!paymentMethodParam.ok) return paymentMethodParam;
  const paymentMethod = paymentMethodParam.value;
  if (paymentMethod === null && confirm) return fail(missingParam('payment_method'));
  if (paymentMethod !== null && !paymentMethod.startsWith('pm_'))
    return fail(missingResource('PaymentMethod', paymentMethod, 'payment_method', 400));

  const customer = optionalString(form, 'customer');
  if (!customer.ok) return customer;
  const description = optionalString(form, 'description');
  if (!description.ok) return description;
  const metadata = parseMetadata(form.metadata);
  if (!metadata.ok) return metadata;
  const paymentMethodTypes = form.payment_method_types === undefined ? undefined : parseStringList(form.payment_method_types);
  if (paymentMethodTypes === null) return fail(invalidRequest('Invalid array', 'payment_method_types', 'parameter_invalid_array'));
  // spec3.json `PostPaymentIntents.off_session`: `anyOf: [boolean, enum [one_off, recurring]]`; either string
  // is an off-session payment (stripe-node 23.1.0 `PaymentIntentCreateParams.OffSession`).
  const offSession = form.off_session === 'one_off' || form.off_session === 'recurring' || parseBoolean(form.off_session, 'off_session');
  if (typeof offSession !== 'boolean') return offSession;
  const returnUrlParam = optionalString(form, 'return_url');
  if (!returnUrlParam.ok) return returnUrlParam;
  const returnUrl = returnUrlParam.value;
  if (!confirm) {
    const confirmOnly = CONFIRM_ONLY_PARAMS.find((param) => form[param] !== undefined);
    if (confirmOnly) return fail(invalidRequest(`This parameter can only be used with \`confirm=true\`: ${confirmOnly}`, confirmOnly));
  }
  const redirects = confirm && redirectProblem({ offSession, returnUrl, paymentMethodTypes, automatic: form.automatic_payment_methods });
  if (redirects) return fail(redirects);

  return {
    ok: true,
    value: {
      confirm,
      amount,
      currency,
      customer: customer.value,
      description: description.value,
      metadata: metadata.value,
      paymentMethod,
      // Without explicit types Stripe uses the Dashboard's automatic payment methods; cards here.
      paymentMethodTypes: paymentMethodTypes ?? ['card'],
      offSession,
      returnUrl,
      automaticPaymentMethods: automaticOf(form.automatic_payment_methods, paymentMethodTypes),
    },
  };
}

/** `metadata[…]`: a hash of strings, within Stripe's limits (api/metadata.ts). */
function parseMetadata(value: FormValue | undefined): Parsed<Record<string, string>> {
  if (value === undefined || value === '') return { ok: true, value: {} };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return fail(invalidRequest('Invalid hash', 'metadata', 'parameter_invalid_hash'));
  }
  const metadata: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (typeof entry !== 'string') return fail(invalidString(`metadata[${key}]`));
    // "Individual keys can be unset by posting an empty value to them" (stripe-node 23.1.0
    // `PaymentIntentCreateParams.metadata`): an empty value sets nothing.
    if (entry !== '') metadata[key] = entry;
  }
  const problem = metadataProblem(metadata);
  return problem ? fail(problem) : { ok: true, value: metadata };
}

function parseStringList(value: FormValue): string[] | null {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) return null;
  return value as string[];
}

/** Stripe's booleans on the wire are the strings `true` and `false`. */
function parseBoolean(value: FormValue | undefined, param: string): boolean | Parsed<never> {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  return fail(invalidRequest(`Invalid boolean: ${String(value)}`, param, 'parameter_invalid_boolean'));
}

/**
 * Since API version 2023-08-16 a PaymentIntent created without `payment_method_types` uses automatic
 * payment methods, and confirming it needs a `return_url` (a method may redirect the customer) unless
 * the confirm is `off_session=true`, names `payment_method_types`, or sets
 * `automatic_payment_methods[allow_redirects]=never`. Source: Stripe API changelog 2023-08-16
 * ("automatic payment methods enabled by default") and spec3.json `PostPaymentIntents`: `return_url`
 * ("…This parameter can only be used with `confirm=true`"), `off_session`, and
 * `automatic_payment_methods.allow_redirects` ("…redirect-based payment methods … will require your
 * customer to be redirected … `return_url` … when confirming"). Message modelled on Stripe's.
 */
function redirectProblem(request: {
  offSession: boolean;
  returnUrl: string | null;
  paymentMethodTypes: string[] | undefined;
  automatic: FormValue | undefined;
}): StripeErrorResponse | undefined {
  if (request.returnUrl !== null || request.offSession || request.paymentMethodTypes !== undefined) return undefined;
  const automatic = request.automatic;
  if (typeof automatic === 'object' && !Array.isArray(automatic) && automatic.allow_redirects === 'never') return undefined;
  return invalidRequest(
    'This PaymentIntent is configured to accept payment methods enabled in your Dashboard. Because some of these payment ' +
      "methods might redirect your customer off of your page, you must provide a `return_url`. If you don't want to accept " +
      'redirect-based payment methods, set `automatic_payment_methods[enabled]` to `true` and ' +
      '`automatic_payment_methods[allow_redirects]` to `never` when creating Setup Intents and Payment Intents.',
    'return_url',
  );
}

/**
 * `null` when absent, Stripe's refusal when not a string or empty. None of the string parameters read here
 * (`customer`, `description`, `payment_method`, `return_url`) is emptyable on create (spec3.json
 * `PostPaymentIntents`: each a plain `type: string`; stripe-node's PaymentIntentCreateParams types them
 * `string`, not `Emptyable<string>`), so Stripe answers `param=` with 400 `parameter_invalid_empty`.
 */
function optionalString(form: FormObject, param: string): Parsed<string | null> {
  const value = form[param];
  if (value === undefined) return { ok: true, value: null };
  if (value === '') return fail(emptyValue(param));
  return typeof value === 'string' ? { ok: true, value } : fail(invalidString(param));
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

/** What the intent reports: explicit types turn automatic payment methods off, as at Stripe. */
function automaticOf(value: FormValue | undefined, types: string[] | undefined): CreateIntentRequest['automaticPaymentMethods'] {
  if (types !== undefined) return null;
  const allow = typeof value === 'object' && !Array.isArray(value) ? value.allow_redirects : undefined;
  return { enabled: true, ...((allow === 'always' || allow === 'never') && { allow_redirects: allow }) };
}
