/**
 * OrderView (order.view.ts) in the OpenAPI document: what POST /v1/orders/{orderId}/charge and GET
 * /v1/orders/{orderId} answer, and support's reconcile and resolve routes show of the order.
 */
import type { SchemaObject } from '@nestjs/swagger';
import { STREAM_EVENT_SCHEMA } from '../../src/event-store/stream-event-view.schema';
import type { OrderStatus } from './order.state';

/** Every status, as a record so that a status added to OrderStatus and not here does not compile. */
const STATUSES: Record<OrderStatus, true> = {
  pending: true,
  processing: true,
  paid: true,
  failed: true,
  unknown: true,
  needs_review: true,
};

export const ORDER_VIEW_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['orderId', 'status', 'amount', 'currency', 'customerId', 'attempts', 'revision'],
  properties: {
    orderId: { type: 'string', example: '481' },
    status: {
      type: 'string',
      enum: Object.keys(STATUSES),
      description:
        'pending and processing: the charge is on its way; paid, failed and needs_review are settled; unknown: the ' +
        "provider's answer was lost and recovery asks it again (DESIGN.md §6).",
    },
    amount: { type: 'integer', minimum: 1, description: "In the currency's smallest unit, as asked for." },
    currency: { type: 'string', example: 'EUR' },
    customerId: { type: 'string', example: 'cus_42' },
    providerChargeId: { type: 'string', example: 'ch_3N…', description: "The provider's charge, once paid." },
    paymentIntentId: { type: 'string', example: 'pi_3N…' },
    attempts: { type: 'integer', minimum: 0, description: 'Attempts of the current request.' },
    lastError: {
      type: 'string',
      description: 'The error that stands now (why it is unknown, failed, in review or retried); absent once paid.',
    },
    lastAttemptAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    revision: { type: 'integer', minimum: 0, description: "The order stream's revision this answer reflects (use it as ?minRevision=)." },
  },
};

export const ORDER_EVENTS_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['orderId', 'events'],
  properties: { orderId: { type: 'string' }, events: { type: 'array', items: STREAM_EVENT_SCHEMA } },
};
