/**
 * What a signed delivery must hold before anything reads it. A valid signature proves who sent the
 * bytes, not that they are the event we handle: a delivery without an id, or a payment_intent event
 * whose object lacks the fields an intent always has (Stripe's OpenAPI spec: `id`, `status`,
 * `amount`, `currency` are required on PaymentIntent), is bad input — a 400 the sender sees, not a
 * 500 that Stripe would retry for days.
 */
import type Stripe from 'stripe';
import { AppError, type FieldProblem } from '../../../src/errors/app-error';
import { isJsonObject as isObject } from '../../../src/errors/json-object-body';

const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/** The delivery as an event, or a 400 WEBHOOK.MALFORMED naming what is missing. */
export function assertWebhookEvent(event: unknown, handledTypes: ReadonlySet<string>): asserts event is Stripe.Event {
  // Told field by field, an array would also lack an id and a type: true, and no help to the sender.
  if (!isObject(event)) throw malformed([{ field: '(body)', message: 'must be a JSON object' }]);
  const problems: FieldProblem[] = [];
  if (!isText(event.id)) problems.push({ field: 'id', message: 'must be a non-empty string' });
  if (!isText(event.type)) problems.push({ field: 'type', message: 'must be a non-empty string' });
  if (isText(event.type) && handledTypes.has(event.type)) {
    const intent = isObject(event.data) && isObject(event.data.object) ? event.data.object : undefined;
    if (!intent) problems.push({ field: 'data.object', message: 'must be a payment intent object' });
    else {
      if (!isText(intent.id)) problems.push({ field: 'data.object.id', message: 'must be a non-empty string' });
      if (!isText(intent.status)) problems.push({ field: 'data.object.status', message: 'must be a non-empty string' });
      if (!Number.isSafeInteger(intent.amount)) problems.push({ field: 'data.object.amount', message: 'must be an integer' });
      if (!isText(intent.currency)) problems.push({ field: 'data.object.currency', message: 'must be a non-empty string' });
      if (intent.metadata !== undefined && intent.metadata !== null && !isObject(intent.metadata))
        problems.push({ field: 'data.object.metadata', message: 'must be an object' });
    }
  }
  if (problems.length) throw malformed(problems);
}

const malformed = (errors: FieldProblem[]) =>
  new AppError('validation', 'WEBHOOK.MALFORMED', 'The signed delivery is not a payment event', { errors });
