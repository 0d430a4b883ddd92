/**
 * POST /v1/support/orders/{orderId}/reconcile — run recovery for one order now and answer with the
 * resulting state (support asks "was I charged?": the provider is asked, the answer recorded).
 * An unknown order is 404 `ORDER.NOT_FOUND`.
 */
import { Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { Pool } from 'pg';
import { CommandMetadata } from '../../../src/auth/caller.decorator';
import { Roles } from '../../../src/auth/roles';
import type { CommandContext } from '../../../src/command-handling/handle-command';
import { DATABASE_POOL } from '../../../src/database/database-pool';
import { EVENT_STORE } from '../../../src/event-store/event-store.port';
import { AppError } from '../../../src/errors/app-error';
import { assertBusinessKey } from '../../../src/errors/business-key';
import type { EventStore } from '../../../src/event-store/event-store.port';
import { PAYMENT_GATEWAY, loadOrder, reconcileOrderNow, toOrderView, type PaymentGateway } from '../../payments';
import { RECONCILE_ANSWER_SCHEMA } from '../support-answers.schema';

@Controller('v1/support/orders')
export class ReconcileOrderController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(DATABASE_POOL) private readonly pool: Pool,
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
  ) {}

  @Post(':orderId/reconcile')
  @Roles('support')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: 'What recovery found and did, and the order after it.', schema: RECONCILE_ANSWER_SCHEMA })
  async reconcile(@Param('orderId') orderId: string, @CommandMetadata() requestedBy: CommandContext['metadata']) {
    assertBusinessKey('orderId', orderId);
    // An order nobody asked to charge has nothing to reconcile: answer as GET /v1/orders/{id} does.
    if (!(await loadOrder(this.store, orderId)).state.exists) {
      throw new AppError('not_found', 'ORDER.NOT_FOUND', `No charge was ever requested for order ${orderId}`, { orderId });
    }
    // Left to its worker while an attempt is inside its lease (see reconcileOrderNow). The events and the
    // recovery line name the support person and this request, not a worker.
    const result = await reconcileOrderNow(
      { store: this.store, pool: this.pool, gateway: this.gateway, workerId: 'support', requestedBy },
      orderId,
      'support',
    );
    const { state, revision } = await loadOrder(this.store, orderId);
    return { ...result, order: state.exists ? toOrderView(state, revision) : null };
  }
}
