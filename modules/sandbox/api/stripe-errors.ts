/**
 * Error bodies in Stripe's v1 shape (`{ error: { type, code?, message, param? } }`). stripe-node picks its
 * error class from the HTTP status and `error.type`, so status and type must travel together.
 */
export interface StripeErrorBody {
  error: {
    type: 'invalid_request_error' | 'idempotency_error' | 'api_error' | 'card_error' | 'rate_limit_error';
    message: string;
    code?: string;
    param?: string;
    doc_url?: string;
    [field: string]: unknown;
  };
}

export interface StripeErrorResponse {
  status: number;
  body: StripeErrorBody;
}

/**
 * The codes the sandbox answers with that are in Stripe's list of error codes (docs.stripe.com/error-codes; the
 * same list is stripe-node 23.1.0's `PaymentIntent.LastPaymentError.Code`). Stripe links each such answer to the
 * code's entry: `"code": "parameter_unknown", "doc_url": "https://stripe.com/docs/error-codes/parameter-unknown"`
 * (stripe/stripe-java `src/test/resources/api_fixtures/error_invalid_request.json` @ c99bcf21, a captured answer).
 * The sandbox's other codes (`parameter_invalid_string`, `_boolean`, `_array`, `_hash`) are not in that list, so
 * they get no link.
 */
const DOCUMENTED_CODES = new Set([
  'parameter_unknown',
  'parameter_missing',
  'parameter_invalid_integer',
  'parameter_invalid_empty',
  'amount_too_small',
  'amount_too_large',
  'invalid_charge_amount',
  'resource_missing',
]);

export function invalidRequest(message: string, param?: string, code?: string): StripeErrorResponse {
  const docUrl = code && DOCUMENTED_CODES.has(code) ? `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}` : undefined;
  const error = { type: 'invalid_request_error' as const, message, ...(code && { code }), ...(param && { param }) };
  return { status: 400, body: { error: { ...error, ...(docUrl && { doc_url: docUrl }) } } };
}

/**
 * Stripe's answer to `param=` (an empty string) for a parameter that cannot be unset: form encoding has no
 * null, so Stripe reads an empty value as "unset this parameter" and refuses it where the parameter is not
 * emptyable (spec3.json marks the emptyable ones `anyOf: [..., {enum: [""]}]`). Message, `code` and `doc_url`
 * as Stripe answers them, quoted in github.com/stripe/stripe-dotnet/issues/1828 (for `line_items[0][images]`)
 * and github.com/craftcms/commerce-stripe/issues/22 (for `customer`).
 */
export function emptyValue(param: string): StripeErrorResponse {
  const message =
    `You passed an empty string for '${param}'. We assume empty values are an attempt to unset a parameter; however ` +
    `'${param}' cannot be unset. You should remove '${param}' from your request or supply a non-empty value.`;
  return invalidRequest(message, param, 'parameter_invalid_empty');
}

/**
 * 404 when the URL names the missing object; 400 when a parameter refers to it, as at Stripe. Stripe
 * links every `resource_missing` to its entry in the error-code list (docs.stripe.com/error-codes#resource-missing).
 */
export function missingResource(kind: string, id: string, param: string, status: 400 | 404 = 404): StripeErrorResponse {
  const error = { type: 'invalid_request_error' as const, code: 'resource_missing', message: `No such ${kind}: '${id}'`, param };
  return { status, body: { error: { ...error, doc_url: 'https://stripe.com/docs/error-codes/resource-missing' } } };
}

export function unauthenticated(message: string): StripeErrorResponse {
  return { status: 401, body: { error: { type: 'invalid_request_error', message } } };
}

export function idempotencyKeyInUse(key: string): StripeErrorResponse {
  return {
    status: 409,
    body: {
      error: {
        type: 'invalid_request_error',
        code: 'idempotency_key_in_use',
        message:
          'There is currently another in-progress request using this Idempotent Key (that probably means you ' +
          `submitted twice, and the other request is still going through): ${key}. Please try again later.`,
      },
    },
  };
}

export function idempotencyMismatch(key: string, reason: 'parameters' | 'endpoint'): StripeErrorResponse {
  const message =
    reason === 'parameters'
      ? 'Keys for idempotent requests can only be used with the same parameters they were first used with. ' +
        `Try using a key other than '${key}' if you meant to execute a different request.`
      : 'Keys for idempotent requests can only be used for the same endpoint they were first used for. ' +
        `Try using a key other than '${key}' if you meant to execute a different request.`;
  return { status: 400, body: { error: { type: 'idempotency_error', message } } };
}

export function apiError(message: string): StripeErrorResponse {
  return { status: 500, body: { error: { type: 'api_error', message } } };
}

/**
 * Stripe's rate limiter: "If you send many requests in quick succession, you might see error responses with
 * status code 429" (docs.stripe.com/rate-limits), of type `rate_limit_error` (spec3.json `api_errors.type`;
 * stripe-node raises StripeRateLimitError for any 429). The limiter answers in front of the idempotency layer:
 * Stripe saves a key's result "only after the execution of an endpoint begins"
 * (docs.stripe.com/api/idempotent_requests), so nothing runs and nothing is stored under the key. The
 * message is the sandbox's: Stripe's docs print none.
 */
export function rateLimited(): StripeErrorResponse {
  const message = 'Too many requests hit the API too quickly (sandbox fault rate_limit). Retry with an exponential backoff.';
  return { status: 429, body: { error: { type: 'rate_limit_error', message } } };
}
