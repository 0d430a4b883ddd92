import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { abandon, answer, exchangeOf } from '../api/exchange';
import type { FormObject } from '../api/form-encoding';
import { apiError, idempotencyKeyInUse, idempotencyMismatch, invalidRequest, rateLimited } from '../api/stripe-errors';
import { secretKeyOf } from '../api/authenticate';
import type { Fault, FaultKind } from '../faults/fault';
import { pause } from '../faults/pause';
import { fingerprintOf } from '../idempotency/fingerprint';
import { MAX_IDEMPOTENCY_KEY_LENGTH, type ClaimTicket, type StoredResponse } from '../idempotency/idempotency.store';
import type { SandboxState } from '../sandbox-state';
import { finalStatusEvent } from '../webhooks/stripe-event';
import { foreignPaymentMethodProblem } from '../customers/saved-card-owner';
import { unknownCustomerProblem } from '../customers/unknown-customer';
import { unknownPaymentMethodProblem } from '../customers/unknown-payment-method';
import { confirmPaymentIntent } from './confirm-payment-intent';
import { parseCreateParams, type CreateIntentRequest } from './create-params';
import { ORDER_ID_METADATA_KEY } from './payment-intent';

const PATH = '/v1/payment_intents';

/**
 * `POST /v1/payment_intents`, confirmed in the same call or not, behind Stripe's idempotency layer. Order of checks, as
 * at Stripe: parameters (a 400 here is not stored), then the key (409 in flight, 400 other
 * parameters, replay of a stored answer), then execution, whose answer is stored under the key.
 * Injected faults strike after the key checks, on fresh and replayed requests alike: the network
 * does not know whether the answer it loses was a replay. A `rate_limit` fault strikes first, as Stripe's
 * rate limiter answers before anything else is looked at (rateLimited).
 */
export function registerCreatePaymentIntent(app: FastifyInstance, state: SandboxState): void {
  app.post(PATH, async (request, reply) => {
    const exchange = exchangeOf(request, state);
    const form = (request.body ?? {}) as FormObject;
    exchange.orderId = orderIdIn(form);
    if (strikeFault(state, request, isRateLimit)) return answer(state, request, reply, 429, rateLimited().body);
    const parsed = parseCreateParams(form);
    if (!parsed.ok) return answer(state, request, reply, parsed.error.status, parsed.error.body);
    // Checked with the parameters: an unknown customer or method, or a refused method, is a validation
    // answer, never stored under the key (see unknownCustomerProblem).
    const refused =
      unknownCustomerProblem(state.customers, parsed.value) ??
      unknownPaymentMethodProblem(state.customers, parsed.value.paymentMethod) ??
      foreignPaymentMethodProblem(state.customers, parsed.value);
    if (refused) return answer(state, request, reply, refused.status, refused.body);

    const key = exchange.idempotencyKey;
    if (key === null) return execute(state, request, reply, parsed.value, undefined, undefined);
    if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
      const error = invalidRequest(`Idempotency-Key must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`);
      return answer(state, request, reply, error.status, error.body);
    }
    const claim = state.idempotency.claim(accountOf(request), key, fingerprintOf('POST', PATH, form), exchange.requestId);
    // Real Stripe echoes the key and the request holding it on these answers too, and marks the 409
    // retryable (captured responses; stripe-node RequestSender `_shouldRetry` obeys Stripe-Should-Retry).
    const echoed = {
      'Idempotency-Key': key,
      'Original-Request': claim.kind === 'in_flight' || claim.kind === 'mismatch' ? claim.originalRequestId : '',
    };
    if (claim.kind === 'in_flight')
      return answer(state, request, reply, 409, idempotencyKeyInUse(key).body, { ...echoed, 'Stripe-Should-Retry': 'true' });
    if (claim.kind === 'mismatch')
      return answer(state, request, reply, 400, idempotencyMismatch(key, claim.reason).body, { ...echoed, 'Stripe-Should-Retry': 'false' });
    if (claim.kind === 'replay') return execute(state, request, reply, parsed.value, undefined, claim.response);
    try {
      return await execute(state, request, reply, parsed.value, claim.ticket, undefined);
    } finally {
      // A no-op once an answer was stored; otherwise nothing executed and the key is free again.
      state.idempotency.release(claim.ticket);
    }
  });
}

async function execute(
  state: SandboxState,
  request: FastifyRequest,
  reply: FastifyReply,
  params: CreateIntentRequest,
  ticket: ClaimTicket | undefined,
  replay: StoredResponse | undefined,
): Promise<FastifyReply> {
  const exchange = exchangeOf(request, state);
  const fault = strikeFault(state, request, (kind) => !isRateLimit(kind));

  if (fault?.kind === 'latency' && (await pause(fault.ms ?? 0, state.shutdown)) === 'shutdown') {
    return abandon(state, request, reply, 'drop');
  }
  if (fault?.kind === 'error_500') return answerInjected500(state, request, reply, fault, replay ? undefined : ticket);
  if (fault?.kind === 'timeout') {
    await pause(fault.ms ?? 0, state.shutdown, request.raw.socket);
    return abandon(state, request, reply, 'drop');
  }

  const response = replay ?? commit(state, params, exchange.requestId, exchange.idempotencyKey, ticket);
  exchange.replayed = replay !== undefined;

  if (fault?.kind === 'drop_after_commit') return abandon(state, request, reply, 'drop');
  if (fault?.kind === 'reset_after_commit') return abandon(state, request, reply, 'reset');
  if (fault?.kind === 'hold_after_commit') {
    const held = {
      requestId: exchange.requestId,
      ...(exchange.orderId !== null && { orderId: exchange.orderId }),
      ...(exchange.idempotencyKey !== null && { idempotencyKey: exchange.idempotencyKey }),
      intentId: intentIdIn(response),
      heldSince: new Date(state.clock()).toISOString(),
    };
    const released = state.held.hold(held, state.shutdown);
    state.signals.emit('response-held', held);
    await released;
    if (state.shutdown.aborted) return abandon(state, request, reply, 'drop');
  }
  const headers = idempotencyHeaders(exchange.idempotencyKey, response, exchange.replayed);
  return answer(state, request, reply, response.status, response.body, headers);
}

/** The provider commits: the intent exists, its answer is stored under the key, its webhook is on its way. */
function commit(
  state: SandboxState,
  params: CreateIntentRequest,
  requestId: string,
  idempotencyKey: string | null,
  ticket: ClaimTicket | undefined,
): StoredResponse {
  const nowSeconds = Math.floor(state.clock() / 1000);
  const chargedAs = params.paymentMethod === null ? undefined : state.customers.paymentMethod(params.paymentMethod)?.testMethod;
  const confirmation = confirmPaymentIntent(params, nowSeconds, chargedAs);
  state.intents.add(confirmation.intent);
  const response = { status: confirmation.status, body: JSON.stringify(confirmation.body), originalRequestId: requestId };
  if (ticket) state.idempotency.complete(ticket, response);
  state.signals.emit('intent-committed', confirmation.intent);
  const event = finalStatusEvent(confirmation.intent, { id: requestId, idempotencyKey }, nowSeconds);
  if (event) state.webhooks.publish(event);
  return response;
}

/**
 * Stripe stores a 500 produced once endpoint execution began, and replays it; `stored: false`
 * models a failure in front of the idempotency layer instead. A fault that hits a replay never
 * overwrites the answer already stored.
 */
function answerInjected500(
  state: SandboxState,
  request: FastifyRequest,
  reply: FastifyReply,
  fault: Fault,
  ticket: ClaimTicket | undefined,
): FastifyReply {
  const error = apiError('An unknown error occurred (sandbox fault: error_500).');
  const body = JSON.stringify(error.body);
  const stored = fault.stored && ticket !== undefined;
  const response = { status: error.status, body, originalRequestId: request.id };
  if (stored && ticket) state.idempotency.complete(ticket, response);
  const key = exchangeOf(request, state).idempotencyKey;
  return answer(state, request, reply, error.status, body, {
    ...idempotencyHeaders(key, response, false),
    // A stored 500 comes back on every retry with the key, so retrying it is pointless: Stripe says so
    // with `Stripe-Should-Retry: false` (stripe-node RequestSender `_shouldRetry`: "we expect the
    // stripe-should-retry header to be false in most cases when a 500 is returned, since our
    // idempotency framework would typically replay it anyway"). One not stored may be retried.
    'Stripe-Should-Retry': stored ? 'false' : 'true',
  });
}

const isRateLimit = (kind: FaultKind) => kind === 'rate_limit';

function strikeFault(state: SandboxState, request: FastifyRequest, where: (kind: FaultKind) => boolean): Fault | undefined {
  const exchange = exchangeOf(request, state);
  const fault = state.faults.strike(exchange.orderId ?? undefined, where);
  if (!fault) return undefined;
  exchange.fault = fault.kind;
  state.signals.emit('fault-struck', { fault, requestId: exchange.requestId, orderId: exchange.orderId });
  return fault;
}

function idempotencyHeaders(key: string | null, response: StoredResponse, replayed: boolean): Record<string, string> {
  if (key === null) return {};
  return {
    'Idempotency-Key': key,
    'Original-Request': response.originalRequestId,
    ...(replayed && { 'Idempotent-Replayed': 'true' }),
  };
}

/**
 * The account a request acts for: the Connect account it names, else the owner of its secret key,
 * however the key was sent (Bearer and Basic auth with one key are one account). Named as the Bearer
 * header it was named by before Basic auth was taken: the journal keeps answered keys under this name,
 * and a key it no longer recognised after an upgrade would be executed anew.
 */
function accountOf(request: FastifyRequest): string {
  const connected = request.headers['stripe-account'];
  if (typeof connected === 'string' && connected !== '') return connected;
  return `Bearer ${secretKeyOf(request.headers.authorization) ?? ''}`;
}

function orderIdIn(form: FormObject): string | null {
  const metadata = form.metadata;
  if (typeof metadata !== 'object' || Array.isArray(metadata)) return null;
  const orderId = metadata[ORDER_ID_METADATA_KEY];
  return typeof orderId === 'string' ? orderId : null;
}

function intentIdIn(response: StoredResponse): string | undefined {
  const body = JSON.parse(response.body) as { id?: string; error?: { payment_intent?: { id?: string } } };
  return body.id ?? body.error?.payment_intent?.id;
}
