/**
 * The in-process provider of `npm start` (IDEM_SANDBOX, the embedded default): the roots start the
 * Stripe-shaped sandbox and pass this kernel its constructor (src does not import modules/sandbox),
 * and every feature then finds the provider where configuration says it is — `stripeApiBase` becomes
 * the sandbox's URL. Without the sandbox the configuration is returned as it was.
 */
import type { IdemConfig } from '../config/config';
import { findFreePort } from '../database/free-port';

export interface InProcessProvider {
  url: string;
  close(): Promise<void>;
}

export async function startSandboxIfEnabled<P extends InProcessProvider>(
  config: IdemConfig,
  createSandbox: (options: { port: number }) => Promise<P>,
): Promise<{ config: IdemConfig; sandbox: P | undefined }> {
  if (!config.sandbox.enabled) return { config, sandbox: undefined };
  const sandbox = await createSandbox({ port: await findFreePort(config.sandbox.port) });
  return { config: { ...config, payments: { ...config.payments, stripeApiBase: sandbox.url } }, sandbox };
}
