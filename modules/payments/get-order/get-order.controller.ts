/**
 * GET /v1/orders/{orderId} and GET /v1/orders/{orderId}/events (the auditors' view of the stream).
 */
import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { Roles } from '../../../src/auth/roles';
import { EVENT_STORE } from '../../../src/event-store/event-store.port';
import { AppError } from '../../../src/errors/app-error';
import { assertBusinessKey } from '../../../src/errors/business-key';
import type { EventStore } from '../../../src/event-store/event-store.port';
import { orderStream } from '../order.events';
import { toOrderView, type OrderView } from '../order.view';
import { loadOrder } from '../load-order';
import { ORDER_EVENTS_SCHEMA, ORDER_VIEW_SCHEMA } from '../order.view.schema';
import { ORDER_READ_MODEL, type OrderReadModel } from './order-read-model.port';
import { toStreamEventView } from '../../../src/event-store/stream-event-view';
import { MinRevisionQuery } from '../../../src/openapi/min-revision-query';

@Controller('v1/orders')
export class GetOrderController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(ORDER_READ_MODEL) private readonly readModel: OrderReadModel,
  ) {}

  /**
   * Served from the orders read model. `?minRevision=` (the revision a POST answered with) asks for
   * read-your-writes: when the read model has not caught up to it — or has no row yet — the answer is
   * folded from the stream instead, at once (nothing waits). A revision beyond the stream's is answered
   * with the stream as it is: its `revision`, lower than the one asked for, tells the caller.
   */
  @Get(':orderId')
  @ApiResponse({ status: 200, description: "The order's payment state.", schema: ORDER_VIEW_SCHEMA })
  @Roles('storefront', 'support', 'auditor')
  @MinRevisionQuery()
  async getOrder(@Param('orderId') orderId: string, @Query('minRevision') minRevisionParam?: string): Promise<OrderView> {
    assertBusinessKey('orderId', orderId);
    const minRevision = parseMinRevision(minRevisionParam);
    const row = await this.readModel.findOrder(orderId);
    if (row && row.revision >= minRevision) return row;
    const { state, revision } = await loadOrder(this.store, orderId);
    if (!state.exists) throw orderNotFound(orderId);
    return toOrderView(state, revision);
  }

  @Get(':orderId/events')
  @ApiResponse({ status: 200, description: "The order stream's events, oldest first.", schema: ORDER_EVENTS_SCHEMA })
  @Roles('support', 'auditor')
  async getOrderEvents(@Param('orderId') orderId: string) {
    assertBusinessKey('orderId', orderId);
    const events = await this.store.readStream(orderStream(orderId));
    if (events.length === 0) throw orderNotFound(orderId);
    return {
      orderId,
      events: events.map(toStreamEventView),
    };
  }
}

function parseMinRevision(raw: string | undefined): number {
  if (raw === undefined) return -1;
  if (!/^\d{1,15}$/.test(raw)) {
    throw new AppError('validation', 'REQUEST.INVALID', 'The request is invalid', {
      errors: [{ field: 'minRevision', message: 'minRevision must be a non-negative integer' }],
    });
  }
  return Number(raw);
}

function orderNotFound(orderId: string): AppError {
  return new AppError('not_found', 'ORDER.NOT_FOUND', `No charge was ever requested for order ${orderId}`, { orderId });
}
