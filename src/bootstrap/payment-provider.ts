/**
 * Which payment provider this process talks to: the in-process sandbox (embedded default) or the
 * configured Stripe API. The composition roots call this; nothing else knows the difference.
 */
import { StripePaymentGateway, type PaymentGateway } from '../../modules/payments';
import { createSandbox, type Sandbox } from '../../modules/sandbox';
import type { IdemConfig } from '../config/config';
import { findFreePort } from '../database/free-port';

export interface PaymentProvider {
  gateway: PaymentGateway;
  /** Set when the sandbox runs in this process. */
  sandbox: Sandbox | undefined;
  close(): Promise<void>;
}

export async function startPaymentProvider(config: IdemConfig): Promise<PaymentProvider> {
  const sandbox = config.sandbox.enabled ? await createSandbox({ port: await findFreePort(config.sandbox.port) }) : undefined;
  const baseUrl = sandbox?.url ?? config.payments.stripeApiBase;
  const gateway = new StripePaymentGateway({
    secretKey: config.payments.stripeSecretKey,
    baseUrl,
    paymentMethod: config.payments.paymentMethod,
    timeoutMs: config.payments.providerTimeoutMs,
  });
  return { gateway, sandbox, close: async () => sandbox?.close() };
}
