import { createHmac } from 'node:crypto';

/**
 * Stripe's webhook signature: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with
 * the endpoint secret, so `stripe.webhooks.constructEvent` accepts what the sandbox sends. Source: stripe-node
 * `src/Webhooks.ts` (`generateTestHeaderString`: `${timestamp}.${payload}` signed with HMAC-SHA256, header
 * `t=…,v1=…`; `EXPECTED_SCHEME: 'v1'`; `DEFAULT_TOLERANCE: 300`) and docs.stripe.com/webhooks ("Verify signatures
 * manually").
 */
export function signatureHeader(payload: string, secret: string, timestampSeconds: number): string {
  const signature = createHmac('sha256', secret).update(`${timestampSeconds}.${payload}`, 'utf8').digest('hex');
  return `t=${timestampSeconds},v1=${signature}`;
}
