/** POST /v1/webhooks/payments' answer in the OpenAPI document: Stripe reads only the status; people read the outcome. */
import type { SchemaObject } from '@nestjs/swagger';

export const WEBHOOK_ANSWER_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['received'],
  properties: {
    received: { type: 'boolean', enum: [true] },
    outcome: {
      type: 'string',
      example: 'ChargeSucceeded',
      description:
        'A first delivery: the event it appended to the order (ChargeSucceeded, ChargeFailed, ChargeNeedsReview), ' +
        '`unchanged_<status>` when the order already knew, `unknown_order`, `no_order` (not a charge of ours), or ' +
        '`ignored` (a type Idem does not handle).',
    },
    duplicate: { type: 'boolean', enum: [true], description: 'A delivery of an event already received (also Idempotent-Replayed: true).' },
  },
};
