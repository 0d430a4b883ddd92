/**
 * The provider a worker process (dist/src/worker.js) charges. Beside `npm start` run with
 * IDEM_WORKER_IN_API=false, the customers are in the api's sandbox; a worker that started a sandbox of
 * its own (in memory, on a free port its start line did not name) charged there, and every order went
 * to review with "No such customer". So a worker never starts a sandbox: in development without
 * STRIPE_API_BASE it charges the api's sandbox at IDEM_SANDBOX_PORT (its CRM too, which follows the
 * provider's address), or refuses to start when nothing answers there, saying what to set.
 */
import type { IdemConfig } from '../config/config';

export async function providerOfWorker(
  config: IdemConfig,
  answersAsSandbox: (url: string) => Promise<boolean> = sandboxAnswersAt,
): Promise<IdemConfig> {
  if (!config.sandbox.enabled || config.payments.stripeApiBase) return config;
  const url = `http://127.0.0.1:${config.sandbox.port}`;
  if (!(await answersAsSandbox(url))) throw new NoSandboxBeside(url);
  return { ...config, payments: { ...config.payments, stripeApiBase: url } };
}

/** Whether a Stripe-shaped sandbox (modules/sandbox) answers at `url`: its control API, not any server on the port. */
async function sandboxAnswersAt(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/_sandbox/search`, { signal: AbortSignal.timeout(2_000) });
    const body = (await response.json()) as { lagMs?: unknown };
    return response.ok && typeof body.lagMs === 'number';
  } catch {
    return false;
  }
}

/** Nothing to charge: no STRIPE_API_BASE and no sandbox of an `npm start` at IDEM_SANDBOX_PORT. */
export class NoSandboxBeside extends Error {
  constructor(readonly url: string) {
    super(
      `no sandbox provider answers at ${url} (IDEM_SANDBOX_PORT), and a worker does not start one of its own: ` +
        "start it with the `idem beside it:` line of the api's banner (it sets STRIPE_API_BASE to the api's sandbox), " +
        'or set STRIPE_API_BASE to the provider it charges',
    );
    this.name = 'NoSandboxBeside';
  }
}
