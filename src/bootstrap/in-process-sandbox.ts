/**
 * The in-process provider of `npm start` (IDEM_SANDBOX, the embedded default): the roots start the
 * Stripe-shaped sandbox and pass this kernel its constructor (src does not import modules/sandbox),
 * and every feature then finds the provider where configuration says it is — `stripeApiBase` becomes
 * the sandbox's URL. Without the sandbox the configuration is returned as it was.
 */
import type { IdemConfig } from '../config/config';
import { join } from 'node:path';
import { findFreePort } from '../database/free-port';

export interface InProcessProvider {
  url: string;
  close(): Promise<void>;
}

/**
 * The sandbox keeps what it holds under the data directory (`<IDEM_DATA_DIR>/sandbox`), so a restarted
 * `npm start` still knows the charges it made (modules/sandbox/sandbox-journal.ts). Only the api process
 * starts one: a worker beside it charges this one (sandbox-beside.ts).
 */
export async function startSandboxIfEnabled<P extends InProcessProvider>(
  config: IdemConfig,
  createSandbox: (options: { port: number; stateDir?: string }) => Promise<P>,
): Promise<{ config: IdemConfig; sandbox: P | undefined }> {
  if (!config.sandbox.enabled) return { config, sandbox: undefined };
  const port = await findFreePort(config.sandbox.port);
  const sandbox = await createSandbox({ port, stateDir: join(config.dataDir, 'sandbox') });
  return { config: { ...config, payments: { ...config.payments, stripeApiBase: sandbox.url } }, sandbox };
}
