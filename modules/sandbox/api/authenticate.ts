import { unauthenticated, type StripeErrorResponse } from './stripe-errors';

/**
 * Any test-mode secret key is accepted (`Authorization: Bearer sk_test_…`); the sandbox has no
 * accounts. A live key or no key is refused with 401, before anything else looks at the request.
 */
export function authenticationProblem(authorization: string | undefined): StripeErrorResponse | undefined {
  if (!authorization) {
    return unauthenticated(
      'You did not provide an API key. You need to provide your API key in the Authorization header, ' +
        "using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
    );
  }
  const match = /^Bearer (\S+)$/.exec(authorization);
  if (!match || !match[1].startsWith('sk_test_')) {
    const shown = match ? `${match[1].slice(0, 8)}***` : '(malformed Authorization header)';
    return unauthenticated(`Invalid API Key provided: ${shown}`);
  }
  return undefined;
}
