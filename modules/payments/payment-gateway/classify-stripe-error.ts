import Stripe from 'stripe';
import type { ChargeOutcome, SavedPaymentMethod } from './payment-gateway.port';

/**
 * What a failed create means. Declines are facts (money did not move); a decline for
 * `authentication_required` (an off-session charge of a card that needs 3-D Secure: 402, code and
 * decline code `authentication_required`, docs.stripe.com/payments/save-and-reuse) is one a person
 * must act on — a retry cannot authenticate; an invalid request needs a human, and so does an
 * idempotency error: the key was first sent with other parameters (Stripe: "Keys for idempotent
 * requests can only be used with the same parameters they were first used with", 400
 * `type: idempotency_error`, docs.stripe.com/api/idempotent_requests), which contradicts our record
 * of what we sent under it. A 409 `idempotency_key_in_use` ("There is currently another in-progress
 * request using this Idempotent Key … Please try again later", docs.stripe.com/api/errors: "409
 * Conflict: The request conflicts with another request (perhaps due to using the same idempotent
 * key)") is the earlier request still running: not an outcome of this call, which Stripe did not run.
 * stripe-node raises it as a plain StripeAPIError, so it is told by status and code, not by class.
 * A 401 (no valid API key) or 403 (a restricted key without the permission) is refused before the
 * request runs — Stripe does not even store it under the key (docs.stripe.com/error-low-level) — so
 * this call moved no money, and no retry can change that until a person fixes the key. It is a
 * rejected request, not an unknown outcome, which was retried five times and then sent to review as
 * "5 consecutive unknown outcomes", hiding the cause. (An earlier call under the key may still have
 * charged: resolving the case asks the provider first, as for any review.)
 * Everything else (timeouts, resets, 5xx, 429) is unknown; a 429 on every try of a call (the rate limiter
 * ran none of them) is then marked not sent by the gateway (unsent-calls.ts), as a refused connection is.
 */
export function classifyStripeError(error: unknown): ChargeOutcome {
  if (error instanceof Stripe.errors.StripeCardError) {
    const paymentIntentId = (error.payment_intent as { id?: string } | undefined)?.id;
    if (error.code === 'authentication_required' && paymentIntentId) {
      return {
        kind: 'action_required',
        paymentIntentId,
        reason: `authentication_required: the customer must authenticate (3-D Secure) on session; payment intent ${paymentIntentId}: ${error.message}`,
      };
    }
    return { kind: 'declined', declineCode: error.decline_code ?? error.code ?? 'card_declined', reason: error.message, paymentIntentId };
  }
  if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 400) {
    return { kind: 'rejected', reason: `${error.code ?? 'invalid_request'}: ${error.message}` };
  }
  if (error instanceof Stripe.errors.StripeError && error.statusCode === 409 && error.code === 'idempotency_key_in_use') {
    return {
      kind: 'in_progress',
      reason: `idempotency_key_in_use: the provider is still executing an earlier request under this key: ${error.message}`,
    };
  }
  if (error instanceof Stripe.errors.StripeIdempotencyError) {
    return { kind: 'rejected', reason: `idempotency_error: the key was used before with other parameters: ${error.message}` };
  }
  const credentials = refusedCredentials(error);
  if (credentials) return { kind: 'rejected', reason: credentials };
  return { kind: 'unknown', error: described(error) };
}

/**
 * What a failed look-up of a customer's card means: a refused request (400, or 404 `resource_missing`
 * "No such customer: 'cus_…'", spec3.json `GET /v1/customers/{customer}`) is a missing customer record,
 * for a person (DESIGN §7.5); so is a key the provider refuses (401/403, see classifyStripeError), which
 * no retry fixes; anything else is unknown, and nothing was charged.
 */
export function classifyLookupError(error: unknown): SavedPaymentMethod {
  if (error instanceof Stripe.errors.StripeInvalidRequestError && (error.statusCode === 400 || error.statusCode === 404)) {
    return { kind: 'rejected', reason: `${error.code ?? 'invalid_request'}: ${error.message}` };
  }
  const credentials = refusedCredentials(error);
  if (credentials) return { kind: 'rejected', reason: credentials };
  return { kind: 'unknown', error: described(error) };
}

/** The reason for a 401/403 answer (stripe-node: StripeAuthenticationError, StripePermissionError), else undefined. */
function refusedCredentials(error: unknown): string | undefined {
  if (error instanceof Stripe.errors.StripeAuthenticationError || error instanceof Stripe.errors.StripePermissionError) {
    const kind = error instanceof Stripe.errors.StripeAuthenticationError ? 'authentication_error' : 'permission_error';
    return `${kind} (HTTP ${error.statusCode ?? '?'}): the provider refused Idem's API key and did not run the request: ${error.message}`;
  }
  return undefined;
}

/** The error as it is recorded; a lost connection names its cause (`ECONNREFUSED`, `ETIMEDOUT`, …), which the SDK's message leaves out. */
function described(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error instanceof Stripe.errors.StripeConnectionError ? (error.detail as { code?: unknown } | undefined)?.code : undefined;
  return `${error.constructor.name}: ${error.message}${typeof cause === 'string' ? ` (${cause})` : ''}`;
}
