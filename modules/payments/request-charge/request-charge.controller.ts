/**
 * POST /v1/orders/{orderId}/charge — the storefront's "Pay". The order id is the business key: the
 * first call records ChargeRequested (the worker does the charging); every duplicate is answered
 * from the stream with `Idempotent-Replayed: true` and does no new work.
 */
import { Body, Controller, Headers, HttpCode, Inject, Param, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiHeader, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { ORDER_VIEW_SCHEMA } from '../order.view.schema';
import { CommandMetadata } from '../../../src/auth/caller.decorator';
import { IDEM_CONFIG, type IdemConfig } from '../../../src/config/config';
import { Roles } from '../../../src/auth/roles';
import { EVENT_STORE } from '../../../src/event-store/event-store.port';
import type { CommandContext } from '../../../src/command-handling/command-handler';
import { AppError } from '../../../src/errors/app-error';
import { assertBusinessKey } from '../../../src/errors/business-key';
import { parseIdempotencyKey } from '../../../src/errors/idempotency-key';
import type { EventStore } from '../../../src/event-store/event-store.port';
import { orderAsLeftByRequest, waitForSettled } from '../load-order';
import { orderStream } from '../order.events';
import { orderCommands } from '../order.commands';
import { isSettled } from '../order.state';
import { toOrderView, type OrderView } from '../order.view';
import { ChargeRequestBody } from './charge-request.body';
import { decideRequestCharge, keyToRemember, needsKeyOnRecord, type RequestCharge } from './request-charge.decision';
import { RequestKeys, type KeyOnRecord } from './request-keys';

const MAX_WAIT_MS = 10_000;

@Controller('v1/orders')
export class RequestChargeController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(IDEM_CONFIG) private readonly config: IdemConfig,
    private readonly requestKeys: RequestKeys,
  ) {}

  @Post(':orderId/charge')
  @Roles('storefront')
  @HttpCode(202)
  @ApiResponse({
    status: 202,
    description: 'Accepted: the order is pending or processing (also after a ?waitMs= that ran out).',
    schema: ORDER_VIEW_SCHEMA,
  })
  @ApiResponse({
    status: 200,
    description: 'The order is paid, failed or in review: now, after ?waitMs=, or as a duplicate of a settled charge.',
    schema: ORDER_VIEW_SCHEMA,
  })
  @ApiResponse({
    status: 422,
    description:
      'ORDER.CHARGE_MISMATCH: this order was asked for with another amount, currency or customer (and was not declined: ' +
      'after a decline any body is a new request); nothing written.',
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'A retry under a key gets the answer that key got, also when its request was a duplicate of another ' +
      '(after a decline: the decline, not a new charge). The same key with another body is refused (422 IDEMPOTENCY_KEY.REUSED).',
  })
  @ApiQuery({
    name: 'waitMs',
    required: false,
    schema: { type: 'integer', minimum: 0, maximum: 10_000 },
    description:
      'Wait up to this long for a terminal state (paid, failed, needs_review): 200 if one is reached, else 202 with the state so far.',
  })
  async requestCharge(
    @Param('orderId') orderId: string,
    @Body() body: ChargeRequestBody,
    @Headers('idempotency-key') idempotencyKeyHeader: string | undefined,
    @Query('waitMs') waitMsParam: string | undefined,
    @CommandMetadata() metadata: CommandContext['metadata'],
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<OrderView> {
    assertBusinessKey('orderId', orderId);
    const waitMs = parseWaitMs(waitMsParam);
    const idempotencyKey = parseIdempotencyKey(idempotencyKeyHeader);
    const requestId = String(metadata.requestId ?? metadata.correlationId);
    const { amount, currency, customerId, description } = body;
    assertShopCurrency(currency, this.config.payments.currencies);
    const command: RequestCharge = { orderId, amount, currency, customerId, description, idempotencyKey, requestId };
    const decide = (keyOnRecord?: KeyOnRecord | null) =>
      orderCommands.handle(this.store, orderId, (order) => decideRequestCharge({ ...command, keyOnRecord }, order), {
        metadata,
        maxAttempts: 5,
      });
    let { state, revision, appended } = await decide();
    // A key the stream does not name, on an order that was declined or asked for again: it may have
    // been answered as a duplicate before, so its record is read and the request decided again.
    let keyOnRecord: KeyOnRecord | undefined;
    if (idempotencyKey && needsKeyOnRecord(command, state)) {
      keyOnRecord = await this.requestKeys.keyOnRecord(orderId, idempotencyKey);
      ({ state, revision, appended } = await decide(keyOnRecord ?? null));
    }
    // A duplicate under a new key is remembered before it is answered: a retry under that key after a
    // decline then gets this answer again instead of starting a new charge.
    const toRemember = appended === 0 ? keyToRemember({ ...command, keyOnRecord }, state) : undefined;
    if (idempotencyKey && toRemember) await this.requestKeys.remember(orderId, idempotencyKey, toRemember);
    // A retry under the key of an earlier request (a later one followed its decline) gets that request's
    // answer. Only an order asked for more than once can have one, so only then is the stream read again.
    const earlier =
      appended === 0 && idempotencyKey && state.requestNumber > 1
        ? orderAsLeftByRequest(await this.store.readStream(orderStream(orderId)), idempotencyKey, keyOnRecord)
        : undefined;
    if (earlier) ({ state, revision } = earlier);
    else if (waitMs > 0 && !isSettled(state.status)) ({ state, revision } = await waitForSettled(this.store, orderId, waitMs));

    void reply.header('location', `/v1/orders/${orderId}`);
    if (appended === 0) void reply.header('idempotent-replayed', 'true');
    // 200 only for a terminal state: a 202 after waiting still says "accepted, not finished", so a
    // client that timed out polls GET instead of taking "processing" for an answer.
    if (isSettled(state.status)) void reply.status(200);
    return toOrderView(state, revision);
  }
}

function parseWaitMs(raw: string | undefined): number {
  if (raw === undefined) return 0;
  if (!/^\d{1,5}$/.test(raw) || Number(raw) > MAX_WAIT_MS) {
    throw new AppError('validation', 'REQUEST.INVALID', 'The request is invalid', {
      errors: [{ field: 'waitMs', message: `waitMs must be an integer from 0 to ${MAX_WAIT_MS}` }],
    });
  }
  return Number(raw);
}

/** A known ISO-4217 code the shop does not charge in is bad input as any other (nothing written). */
function assertShopCurrency(currency: string, currencies: readonly string[]): void {
  if (currencies.includes(currency)) return;
  throw new AppError('validation', 'REQUEST.INVALID', 'The request is invalid', {
    errors: [{ field: 'currency', message: `currency must be one the shop charges in: ${currencies.join(', ')}` }],
  });
}
