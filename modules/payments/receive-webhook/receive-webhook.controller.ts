/**
 * POST /v1/webhooks/payments — Stripe-style signed events. The signature (and its 300 s tolerance,
 * either side of our clock) is checked on the raw bytes; duplicates and out-of-order deliveries are
 * harmless because an event can only move an order forward, and each is remembered once applied.
 */
import { Controller, Headers, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Stripe from 'stripe';
import { EVENT_STORE } from '../../../src/event-store/event-store.port';
import { IDEM_CONFIG, type IdemConfig } from '../../../src/config/config';
import { AppError } from '../../../src/errors/app-error';
import { BUSINESS_KEY } from '../../../src/errors/business-key';
import { WrongExpectedVersion } from '../../../src/event-store/errors';
import type { EventStore } from '../../../src/event-store/event-store.port';
import { decidedEvent } from '../../../src/command-handling/decider';
import { reportNeedsReview, reportSecondCharge } from '../needs-review.alert';
import { orderCommands } from '../order.commands';
import type { OrderState } from '../order.state';
import { toProviderPayment } from '../payment-gateway/stripe.payment-gateway';
import { decideWebhook } from './webhook.decision';
import { WebhookDeliveries } from './webhook-deliveries';
import { assertWebhookEvent } from './webhook-shape';
import { Public } from '../../../src/auth/roles';
import { WEBHOOK_ANSWER_SCHEMA } from './webhook-answer.schema';

const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * A delivery of an event already received (Stripe delivers at least once): answered as a replay, with
 * `Idempotent-Replayed: true` like a charge request sent again, so support's count of duplicates
 * absorbed (GET /v1/support/overview) includes the webhooks a provider sent twice.
 */
function duplicate(reply: FastifyReply) {
  void reply.header('idempotent-replayed', 'true');
  return { received: true, duplicate: true };
}
const HANDLED_TYPES = new Set(['payment_intent.succeeded', 'payment_intent.payment_failed']);

@Public('the provider signs each delivery (Stripe-Signature), checked in the handler')
@Controller('v1/webhooks')
export class ReceiveWebhookController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(IDEM_CONFIG) private readonly config: IdemConfig,
    private readonly deliveries: WebhookDeliveries,
  ) {}

  @Post('payments')
  @HttpCode(200)
  @ApiResponse({
    status: 200,
    description: 'Received (also a duplicate delivery): Stripe stops redelivering.',
    schema: WEBHOOK_ANSWER_SCHEMA,
  })
  @ApiHeader({
    name: 'Stripe-Signature',
    required: true,
    description: 'Checked over the raw body, 300 s tolerance either side of the server clock.',
  })
  @ApiBody({ description: 'A Stripe event (payment_intent.succeeded or payment_intent.payment_failed).', schema: { type: 'object' } })
  async receive(
    @Req() request: FastifyRequest & { rawBody?: Buffer },
    @Headers('stripe-signature') signature: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const event: unknown = this.verify(request.rawBody, signature);
    assertWebhookEvent(event, HANDLED_TYPES);
    if (!HANDLED_TYPES.has(event.type)) {
      const first = await this.deliveries.remember(event.id, event.type, undefined, 'ignored');
      return first ? { received: true, outcome: 'ignored' } : duplicate(reply);
    }
    // No "seen before?" query first: applying is idempotent (a delivery can only move the order
    // forward, with a deterministic event id), so a redelivery finds nothing to do, and the one insert
    // below both remembers a first delivery and recognises a repeated one. That saves a statement on
    // every webhook, and redeliveries are the exception.
    const payment = toProviderPayment(event.data.object as Stripe.PaymentIntent);
    // An order id no order of ours can have (too long, control characters: a charge made elsewhere
    // with metadata of its own) is no order of ours; refusing it with a 4xx would only make Stripe
    // redeliver it for days.
    const ours = payment.orderId !== undefined && BUSINESS_KEY.test(payment.orderId);
    let outcome = ours ? await this.apply(event.id, payment.orderId!, payment) : 'no_order';
    // Money taken for an order we do not know yet (a charge made outside Idem): kept with the delivery,
    // so a charge requested for that order later goes to review instead of charging again (the worker
    // looks it up before its first attempt, see charge-order.job).
    const outside =
      outcome === 'unknown_order' && payment.status === 'succeeded'
        ? { paymentIntentId: payment.paymentIntentId, amount: payment.amount, currency: payment.currency }
        : undefined;
    const first = await this.deliveries.remember(event.id, event.type, ours ? payment.orderId : undefined, outcome, outside);
    // The request may have been accepted, and its worker have looked for outside payments, between our
    // look at the order and that insert. So look again once the payment is remembered: either the
    // worker saw it (and charged nothing), or this look sees the order and sends it to review as for
    // any late webhook. Applying twice is harmless: the same step id, forward-only decisions.
    if (outside) outcome = await this.apply(event.id, payment.orderId!, payment);
    return first ? { received: true, outcome } : duplicate(reply);
  }

  private verify(rawBody: Buffer | undefined, signature: string | undefined): Stripe.Event {
    if (!rawBody || !signature) {
      throw new AppError('validation', 'WEBHOOK.SIGNATURE_MISSING', 'A signed JSON body with a Stripe-Signature header is required');
    }
    let event: Stripe.Event;
    try {
      event = Stripe.webhooks.constructEvent(rawBody, signature, this.config.payments.webhookSecret, SIGNATURE_TOLERANCE_SECONDS);
    } catch (error) {
      throw new AppError('validation', 'WEBHOOK.SIGNATURE_INVALID', `Webhook signature rejected: ${(error as Error).message}`);
    }
    // stripe-node bounds only a timestamp's age: one signed far ahead of our clock would pass, and a
    // copy of that delivery could be replayed until then. The tolerance holds both ways.
    const signedAt = Number(/(?:^|,)t=(\d+)/.exec(signature)?.[1]);
    if (signedAt - Math.floor(Date.now() / 1000) > SIGNATURE_TOLERANCE_SECONDS) {
      const message = `Webhook signature rejected: timestamp ${signedAt} is more than ${SIGNATURE_TOLERANCE_SECONDS} s ahead of this server's clock`;
      throw new AppError('validation', 'WEBHOOK.SIGNATURE_INVALID', message);
    }
    return event;
  }

  private async apply(providerEventId: string, orderId: string, payment: ReturnType<typeof toProviderPayment>): Promise<string> {
    const metadata = { correlationId: orderId, causationId: providerEventId, actor: { role: 'provider', tokenId: 'webhook' } };
    const step = `webhook/${providerEventId}`;
    let decidedOn: OrderState | undefined;
    const decide = (order: OrderState) => decidedEvent(decideWebhook((decidedOn = order), payment), step);
    const applied = await orderCommands.handle(this.store, orderId, decide, { metadata, maxAttempts: 5 }).catch((error: unknown) => {
      if (!(error instanceof WrongExpectedVersion)) throw error;
      const message = 'The order kept changing while the webhook was applied; the provider will redeliver';
      throw new AppError('conflict', 'WEBHOOK.BUSY', message);
    });
    const [event] = applied.newEvents;
    if (!event) return applied.state.exists ? `unchanged_${applied.state.status}` : 'unknown_order';
    if (event.type === 'ChargeNeedsReview') {
      reportNeedsReview(orderId, event.data.reason);
      if (decidedOn?.status === 'paid') reportSecondCharge(orderId, event.data.reason);
    }
    return event.type;
  }
}
