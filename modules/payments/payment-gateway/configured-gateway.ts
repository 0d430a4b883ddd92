import type { IdemConfig } from '../../../src/config/config';
import type { PaymentGateway } from './payment-gateway.port';
import { StripePaymentGateway } from './stripe.payment-gateway';

/**
 * The gateway the configuration names: Stripe's API at `stripeApiBase` (api.stripe.com when unset;
 * the in-process sandbox under `npm start`, whose root puts its URL there), or at `baseUrl` if given.
 */
export function configuredGateway(payments: IdemConfig['payments'], baseUrl = payments.stripeApiBase): PaymentGateway {
  const { stripeSecretKey: secretKey, paymentMethod, providerTimeoutMs: timeoutMs } = payments;
  return new StripePaymentGateway({ secretKey, baseUrl, paymentMethod, timeoutMs });
}
