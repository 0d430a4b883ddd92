/**
 * The payment gateway on the official `stripe` SDK: a background charge of the customer's saved card,
 * created and confirmed in one call with the persisted idempotency key and `metadata.order_id`. The
 * SDK's own retries are kept (they reuse the key, so they are safe) but never relied on: whatever
 * they could not settle becomes "unknown" and is verified later.
 */
import Stripe from 'stripe';
import { classifyStripeError } from './classify-stripe-error';
import type { ChargeInstruction, ChargeOutcome, PaymentGateway, ProviderPayment, SavedPaymentMethod } from './payment-gateway.port';
import { lookUpSavedPaymentMethod } from './saved-payment-method';
import { toProviderPayment } from './to-provider-payment';
import { UnsentCalls } from './unsent-calls';

export { toProviderPayment } from './to-provider-payment';

export interface StripeGatewayOptions {
  secretKey: string;
  /** For the sandbox: `http://127.0.0.1:3100`. Omitted: api.stripe.com. */
  baseUrl?: string;
  /**
   * Test mode only: a payment method sent for every customer instead of looking up each one's saved
   * card. Stripe's test PaymentMethods (`pm_card_visa`, …) work for any customer in test mode; in live
   * mode a PaymentMethod belongs to one customer and Stripe refuses it for any other. Omitted:
   * `pm_card_visa` with a test key (no look-up call: the sandbox, tests and benches), none with a live
   * key. `null`: always look the customer's saved card up.
   */
  paymentMethod?: string | null;
  timeoutMs?: number;
  maxNetworkRetries?: number;
}

/** Search pages are at most 100 (spec3.json `GET /v1/payment_intents/search`: `limit` 1..100). */
const SEARCH_PAGE_LIMIT = 100;

export class StripePaymentGateway implements PaymentGateway {
  private readonly stripe: Stripe;
  /** The test-mode method sent instead of each customer's saved card; null: look the card up. */
  private readonly testPaymentMethod: string | null;
  /** How the tries of each create ended: a call none of whose tries connected, or each rate limited, ran nothing (unsent-calls.ts). */
  private readonly unsent = new UnsentCalls();

  constructor(options: StripeGatewayOptions) {
    const url = options.baseUrl ? new URL(options.baseUrl) : undefined;
    this.stripe = new Stripe(options.secretKey, {
      ...(url
        ? {
            host: url.hostname,
            port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
            protocol: url.protocol.replace(':', '') as 'http' | 'https',
          }
        : {}),
      timeout: options.timeoutMs ?? 10_000,
      maxNetworkRetries: options.maxNetworkRetries ?? 1,
      httpClient: this.unsent.httpClient(),
    });
    const live = /^(sk|rk)_live_/.test(options.secretKey);
    if (live && typeof options.paymentMethod === 'string')
      throw new Error('A test payment method cannot be sent with a live key: each customer pays with their own card');
    this.testPaymentMethod = options.paymentMethod === undefined ? (live ? null : 'pm_card_visa') : options.paymentMethod;
  }

  async savedPaymentMethod(customerId: string): Promise<SavedPaymentMethod> {
    if (this.testPaymentMethod !== null) return { kind: 'found', paymentMethodId: this.testPaymentMethod };
    return lookUpSavedPaymentMethod(this.stripe, customerId);
  }

  async charge(instruction: ChargeInstruction): Promise<ChargeOutcome> {
    const paymentMethod = instruction.paymentMethodId ?? this.testPaymentMethod;
    if (paymentMethod === null) {
      return { kind: 'rejected', reason: `no payment method recorded for key ${instruction.idempotencyKey}: nothing was sent` };
    }
    const tries = this.unsent.watch(instruction.idempotencyKey);
    try {
      const intent = await this.stripe.paymentIntents.create(createParams(instruction, paymentMethod), {
        idempotencyKey: instruction.idempotencyKey,
      });
      const replayed = intent.lastResponse?.headers?.['idempotent-replayed'] === 'true';
      // A replay is the answer as it was first given: a payment pending then may have settled since.
      const current = replayed && !isFinal(intent.status) ? await this.stripe.paymentIntents.retrieve(intent.id) : intent;
      return outcomeOf(current, replayed);
    } catch (error) {
      const outcome = classifyStripeError(error);
      // No try connected, or each was rate limited: the provider ran nothing, so there is no outcome to be unsure of.
      return outcome.kind === 'unknown' && tries.ranNothing() ? { ...outcome, notSent: true } : outcome;
    } finally {
      tries.stop();
    }
  }

  async findPayments(orderId: string): Promise<ProviderPayment[]> {
    const escaped = orderId.replace(/'/g, "\\'");
    const found: ProviderPayment[] = [];
    let page: string | undefined;
    do {
      const result = await this.stripe.paymentIntents.search({
        query: `metadata['order_id']:'${escaped}'`,
        limit: SEARCH_PAGE_LIMIT,
        ...(page && { page }),
      });
      found.push(...result.data.map(toProviderPayment));
      page = result.has_more && result.next_page ? result.next_page : undefined;
    } while (page);
    return found;
  }

  /**
   * `GET /v1/payment_intents?customer=&created[gte]=`, every page: lists "aren't subject to the
   * availability delay" of search (docs.stripe.com/search, "Data freshness").
   */
  async listPayments(customerId: string, since: Date): Promise<ProviderPayment[]> {
    const found: ProviderPayment[] = [];
    const listing = this.stripe.paymentIntents.list({
      customer: customerId,
      created: { gte: Math.floor(since.getTime() / 1000) },
      limit: 100,
    });
    for await (const intent of listing) found.push(toProviderPayment(intent));
    return found;
  }

  async retrievePayment(paymentIntentId: string): Promise<ProviderPayment | undefined> {
    try {
      return toProviderPayment(await this.stripe.paymentIntents.retrieve(paymentIntentId));
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return undefined;
      throw error;
    }
  }
}

/**
 * A background charge of a saved card, as Stripe accepts it (docs.stripe.com/payments/save-and-reuse,
 * "Charge the saved payment method later"): `customer`, `payment_method`, `off_session=true`,
 * `confirm=true`. `off_session` also exempts the confirm from `return_url` (API 2023-08-16 onwards) and
 * makes Stripe answer a card that needs 3-D Secure with a 402 `authentication_required` instead of
 * waiting for a customer who is not there. `payment_method` is the one recorded for the key: a replay
 * must send the same parameters (docs.stripe.com/api/idempotent_requests).
 */
function createParams(instruction: ChargeInstruction, paymentMethod: string): Stripe.PaymentIntentCreateParams {
  return {
    amount: instruction.amount,
    currency: instruction.currency.toLowerCase(),
    customer: instruction.customerId,
    payment_method: paymentMethod,
    off_session: true,
    confirm: true,
    // Never `description=`: Stripe refuses an empty one (400 parameter_invalid_empty, it cannot be unset on
    // create). The API refuses "" (charge-request.body.ts); an order recorded with "" before it did goes without one.
    ...(instruction.description ? { description: instruction.description } : {}),
    metadata: { order_id: instruction.orderId, customer_id: instruction.customerId, provider_key: instruction.idempotencyKey },
  };
}

const isFinal = (status: Stripe.PaymentIntent.Status) =>
  status === 'succeeded' || status === 'requires_payment_method' || status === 'canceled';

function outcomeOf(intent: Stripe.PaymentIntent, replayed: boolean): ChargeOutcome {
  const payment = toProviderPayment(intent);
  if (intent.status === 'succeeded') return { kind: 'succeeded', payment, replayed };
  if (intent.status === 'processing')
    return { kind: 'pending', paymentIntentId: intent.id, reason: `payment intent ${intent.id} is processing at the provider` };
  if (intent.status === 'requires_action') {
    return {
      kind: 'action_required',
      paymentIntentId: intent.id,
      reason: `payment intent ${intent.id} requires action from the customer (${intent.next_action?.type ?? 'authentication'})`,
    };
  }
  if (intent.status === 'requires_payment_method' || intent.status === 'canceled') {
    const error = intent.last_payment_error;
    return {
      kind: 'declined',
      declineCode: error?.decline_code ?? error?.code ?? intent.status,
      reason: error?.message ?? `payment intent ${intent.id} is ${intent.status}`,
      paymentIntentId: intent.id,
    };
  }
  return { kind: 'unknown', error: `payment intent ${intent.id} is ${intent.status}` };
}
