import { unauthenticated, type StripeErrorResponse } from './stripe-errors';

/**
 * Any test-mode secret key is accepted (`Authorization: Bearer sk_test_…`); the sandbox has no
 * accounts. A live key or no key is refused with 401, before anything else looks at the request
 * (docs.stripe.com/api/authentication: "API requests without authentication will also fail"; docs.stripe.com/api/errors:
 * 401 "No valid API key provided"). Stripe's docs print neither message: the one for a missing key is Stripe's live
 * answer as clients have captured it; the masking of a wrong key is the sandbox's.
 */
export function authenticationProblem(authorization: string | undefined): StripeErrorResponse | undefined {
  if (!authorization) {
    return unauthenticated(
      'You did not provide an API key. You need to provide your API key in the Authorization header, ' +
        "using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication " +
        'for details, or we can help at https://support.stripe.com/.',
    );
  }
  const match = /^Bearer (\S+)$/.exec(authorization);
  if (!match || !match[1].startsWith('sk_test_')) {
    const shown = match ? `${match[1].slice(0, 8)}***` : '(malformed Authorization header)';
    return unauthenticated(`Invalid API Key provided: ${shown}`);
  }
  return undefined;
}
