/**
 * The payment gateway on the official `stripe` SDK: PaymentIntents created and confirmed in one call
 * with the persisted idempotency key and `metadata.order_id`. The SDK's own retries are kept (they
 * reuse the key, so they are safe) but never relied on: whatever they could not settle becomes
 * "unknown" and is verified later.
 */
import Stripe from 'stripe';
import type { ChargeInstruction, ChargeOutcome, PaymentGateway, ProviderPayment } from './payment-gateway.port';

export interface StripeGatewayOptions {
  secretKey: string;
  /** For the sandbox: `http://127.0.0.1:3100`. Omitted: api.stripe.com. */
  baseUrl?: string;
  /** The payment method to confirm with (the storefront's saved card in production). */
  paymentMethod?: string;
  timeoutMs?: number;
  maxNetworkRetries?: number;
}

export class StripePaymentGateway implements PaymentGateway {
  private readonly stripe: Stripe;
  private readonly paymentMethod: string;

  constructor(options: StripeGatewayOptions) {
    const url = options.baseUrl ? new URL(options.baseUrl) : undefined;
    this.stripe = new Stripe(options.secretKey, {
      ...(url ? { host: url.hostname, port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)), protocol: url.protocol.replace(':', '') as 'http' | 'https' } : {}),
      timeout: options.timeoutMs ?? 10_000,
      maxNetworkRetries: options.maxNetworkRetries ?? 1,
    });
    this.paymentMethod = options.paymentMethod ?? 'pm_card_visa';
  }

  async charge(instruction: ChargeInstruction): Promise<ChargeOutcome> {
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: instruction.amount,
          currency: instruction.currency.toLowerCase(),
          confirm: true,
          payment_method: this.paymentMethod,
          ...(instruction.description ? { description: instruction.description } : {}),
          metadata: { order_id: instruction.orderId, customer_id: instruction.customerId, provider_key: instruction.idempotencyKey },
        },
        { idempotencyKey: instruction.idempotencyKey },
      );
      const payment = toProviderPayment(intent);
      if (payment.status === 'succeeded') return { kind: 'succeeded', payment };
      return { kind: 'unknown', error: `payment intent ${intent.id} is ${intent.status}` };
    } catch (error) {
      return classifyError(error);
    }
  }

  async findPayments(orderId: string): Promise<ProviderPayment[]> {
    const escaped = orderId.replace(/'/g, "\\'");
    const result = await this.stripe.paymentIntents.search({ query: `metadata['order_id']:'${escaped}'`, limit: 100 });
    return result.data.map(toProviderPayment);
  }
}

/** Declines are facts (money did not move); invalid requests need a human; everything else is unknown. */
function classifyError(error: unknown): ChargeOutcome {
  if (error instanceof Stripe.errors.StripeCardError) {
    return {
      kind: 'declined',
      declineCode: error.decline_code ?? error.code ?? 'card_declined',
      reason: error.message,
      paymentIntentId: (error.payment_intent as { id?: string } | undefined)?.id,
    };
  }
  if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 400) {
    return { kind: 'rejected', reason: `${error.code ?? 'invalid_request'}: ${error.message}` };
  }
  const described = error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error);
  return { kind: 'unknown', error: described };
}

/** Our view of a Stripe PaymentIntent (also used for the intents inside webhook events). */
export function toProviderPayment(intent: Stripe.PaymentIntent): ProviderPayment {
  const status = intent.status === 'succeeded' ? 'succeeded' : intent.status === 'requires_payment_method' || intent.status === 'canceled' ? 'failed' : 'pending';
  return {
    paymentIntentId: intent.id,
    chargeId: typeof intent.latest_charge === 'string' ? intent.latest_charge : intent.latest_charge?.id,
    status,
    amount: intent.amount,
    currency: intent.currency.toUpperCase(),
    orderId: intent.metadata?.order_id,
    providerKey: intent.metadata?.provider_key,
    declineCode: intent.last_payment_error?.decline_code ?? undefined,
  };
}
