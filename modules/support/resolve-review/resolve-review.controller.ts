/** POST /v1/support/orders/{orderId}/resolve — close a needs-review case with a note. */
import { Body, Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { CommandMetadata } from '../../../src/auth/caller.decorator';
import { Roles } from '../../../src/auth/roles';
import { EVENT_STORE } from '../../../src/event-store/event-store.port';
import type { CommandContext } from '../../../src/command-handling/command-handler';
import { assertBusinessKey } from '../../../src/errors/business-key';
import type { EventStore } from '../../../src/event-store/event-store.port';
import {
  PAYMENT_GATEWAY,
  checkProviderForOrder,
  decideResolveReview,
  loadOrder,
  orderCommands,
  toOrderView,
  type PaymentGateway,
  ORDER_VIEW_SCHEMA,
} from '../../payments';
import { ResolveReviewBody } from './resolve-review.body';

@Controller('v1/support/orders')
export class ResolveReviewController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
  ) {}

  @Post(':orderId/resolve')
  @Roles('support')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: 'The order, settled as support resolved it.', schema: ORDER_VIEW_SCHEMA })
  @ApiResponse({
    status: 422,
    description:
      'ORDER.PAYMENT_AMOUNT_MISMATCH: "paid", but the provider\'s payment is another amount (or currency) than the order: ' +
      'details name both (ordered, paid); send acceptedAmount equal to the paid amount to accept it (same currency only). ' +
      'Also ORDER.NOT_IN_REVIEW, ORDER.PROVIDER_HOLDS_CHARGE, ORDER.PROVIDER_HOLDS_NO_CHARGE, ORDER.PROVIDER_PAYMENT_PENDING.',
  })
  async resolve(
    @Param('orderId') orderId: string,
    @Body() body: ResolveReviewBody,
    @CommandMetadata() metadata: CommandContext['metadata'],
  ) {
    assertBusinessKey('orderId', orderId);
    const actor = `${metadata.actor.role}:${metadata.actor.tokenId}`;
    // First ask the provider about every key used (read-only; only for an order in review, since the
    // decision refuses any other): "failed" lets a new request charge under a new key, and "paid"
    // must name a payment the provider holds.
    const inReview = (await loadOrder(this.store, orderId)).state.status === 'needs_review';
    const providerCheck = inReview ? await checkProviderForOrder(this.gateway, this.store, orderId, new Date()) : undefined;
    const requestId = String(metadata.requestId ?? metadata.correlationId);
    const { note, resolution, acceptedAmount } = body;
    const command = {
      orderId,
      actor,
      note,
      resolution,
      requestId,
      providerCheck,
      ...(acceptedAmount !== undefined ? { acceptedAmount } : {}),
    };
    const resolved = await orderCommands.handle(this.store, orderId, (order) => decideResolveReview(command, order), { metadata });
    return toOrderView(resolved.state, resolved.revision);
  }
}
