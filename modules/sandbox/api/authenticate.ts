import { unauthenticated, type StripeErrorResponse } from './stripe-errors';

/**
 * The secret key a request authenticates with, in either of the two ways Stripe takes it
 * (docs.stripe.com/api/authentication): "Authentication to the API is performed via HTTP Basic Auth.
 * Provide your API key as the basic auth username value. You do not need to provide a password." (curl's
 * `-u sk_test_…:`), or "If you need to authenticate via bearer auth …, use -H "Authorization: Bearer
 * sk_test_…"" (what stripe-node sends). Undefined when the header holds neither.
 */
export function secretKeyOf(authorization: string | undefined): string | undefined {
  const bearer = /^Bearer (\S+)$/.exec(authorization ?? '');
  if (bearer) return bearer[1];
  const basic = /^Basic ([A-Za-z0-9+/]+={0,2})$/i.exec(authorization ?? '');
  if (!basic) return undefined;
  // The username is everything before the first colon; the password, if any, is not looked at.
  const username = Buffer.from(basic[1], 'base64').toString('utf8').split(':')[0];
  return username === '' ? undefined : username;
}

/**
 * Any test-mode secret key is accepted, sent as Bearer or Basic auth (secretKeyOf); the sandbox has no
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
  const key = secretKeyOf(authorization);
  if (!key?.startsWith('sk_test_')) {
    const shown = key ? `${key.slice(0, 8)}***` : '(malformed Authorization header)';
    return unauthenticated(`Invalid API Key provided: ${shown}`);
  }
  return undefined;
}
