import Stripe from 'stripe';
import { classifyLookupError, classifyStripeError } from './classify-stripe-error';

const refusedKey = new Stripe.errors.StripeAuthenticationError({ message: 'Invalid API Key provided: rk_test_***', statusCode: 401 });
const missingPermission = new Stripe.errors.StripePermissionError({
  message: 'The provided key does not have the required permissions for this endpoint',
  statusCode: 403,
});

describe('classifyStripeError', () => {
  describe('when the provider refuses the API key (401) or a restricted key lacks the permission (403)', () => {
    it.each([
      ['401', refusedKey, /^authentication_error \(HTTP 401\): the provider refused Idem's API key/],
      ['403', missingPermission, /^permission_error \(HTTP 403\): the provider refused Idem's API key/],
    ])('is a rejected request (%s), never an unknown outcome', (_status, error, reason) => {
      expect(classifyStripeError(error)).toEqual({ kind: 'rejected', reason: expect.stringMatching(reason) });
      expect(classifyLookupError(error)).toEqual({ kind: 'rejected', reason: expect.stringMatching(reason) });
    });
  });

  it('keeps a 5xx or a lost connection unknown', () => {
    const serverError = new Stripe.errors.StripeAPIError({ message: 'An unknown error occurred', statusCode: 500 });
    const connection = new Stripe.errors.StripeConnectionError({ message: 'socket hang up' });
    for (const error of [serverError, connection]) {
      expect(classifyStripeError(error)).toMatchObject({ kind: 'unknown' });
      expect(classifyLookupError(error)).toMatchObject({ kind: 'unknown' });
    }
  });
});
