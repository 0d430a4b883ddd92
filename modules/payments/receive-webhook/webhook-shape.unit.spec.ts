import { AppError } from '../../../src/errors/app-error';
import { assertWebhookEvent } from './webhook-shape';

const HANDLED = new Set(['payment_intent.succeeded']);

function problemsOf(delivery: unknown) {
  try {
    assertWebhookEvent(delivery, HANDLED);
  } catch (error) {
    expect(error).toMatchObject({ kind: 'validation', code: 'WEBHOOK.MALFORMED' });
    return (error as AppError).details.errors;
  }
  throw new Error('the delivery was taken');
}

describe('assertWebhookEvent', () => {
  it.each([
    ['an array', [1, 2]],
    ['a string', 'evt_1'],
    ['a number', 42],
    ['null', null],
  ])('refuses %s as a body that must be a JSON object, and only as that', (_label, delivery) => {
    expect(problemsOf(delivery)).toEqual([{ field: '(body)', message: 'must be a JSON object' }]);
  });

  it('names each missing field of an object', () => {
    expect(problemsOf({ data: {} })).toEqual([
      { field: 'id', message: 'must be a non-empty string' },
      { field: 'type', message: 'must be a non-empty string' },
    ]);
  });
});
