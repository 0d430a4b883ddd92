/** The signature of a review alert's delivery (send-review-alert.task.ts). */
import Stripe from 'stripe';

export const SIGNATURE_HEADER = 'Idem-Signature';

/**
 * `Idem-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, Stripe's webhook scheme, so
 * a receiver can check it with any Stripe webhook library (`stripe.webhooks.signature.verifyHeader`).
 * Signed by the Stripe SDK's own signer — the one the receive-webhook route's check agrees with —
 * rather than a second hand-written HMAC. The timestamp is the moment of sending: each retry is signed
 * afresh, so a receiver's replay tolerance does not reject a delivery retried hours later.
 */
export function signatureHeaders(body: string, secret: string | undefined, now: Date): Record<string, string> {
  if (!secret) return {};
  const timestamp = Math.floor(now.getTime() / 1000);
  return { [SIGNATURE_HEADER]: Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp }) };
}
