/**
 * What a signed delivery must hold before anything reads it. A valid signature proves who sent the
 * bytes, not that they are the event we handle: a delivery without an id, or a payment_intent event
 * whose object lacks the fields an intent always has (Stripe's OpenAPI spec: `id`, `status`,
 * `amount`, `currency` are required on PaymentIntent), is bad input — a 400 the sender sees, not a
 * 500 that Stripe would retry for days.
 */
import type Stripe from 'stripe';
import { AppError, type FieldProblem } from '../../../src/errors/app-error';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/** The delivery as an event, or a 400 WEBHOOK.MALFORMED naming what is missing. */
export function assertWebhookEvent(event: unknown, handledTypes: ReadonlySet<string>): asserts event is Stripe.Event {
  const problems: FieldProblem[] = [];
  const root = isObject(event) ? event : {};
  if (!isObject(event)) problems.push({ field: '(body)', message: 'must be a JSON object' });
  if (!isText(root.id)) problems.push({ field: 'id', message: 'must be a non-empty string' });
  if (!isText(root.type)) problems.push({ field: 'type', message: 'must be a non-empty string' });
  if (isText(root.type) && handledTypes.has(root.type)) {
    const intent = isObject(root.data) && isObject(root.data.object) ? root.data.object : undefined;
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
  if (problems.length)
    throw new AppError('validation', 'WEBHOOK.MALFORMED', 'The signed delivery is not a payment event', { errors: problems });
}
