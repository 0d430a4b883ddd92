/**
 * The worker process (production topology): the features' projections, reactors, jobs, schedules and
 * services — for payments the charge and recovery jobs. `npm start` runs the same work inside the api
 * process instead. It starts no sandbox: in development it charges the api's (sandbox-beside.ts).
 */
import 'reflect-metadata';
import { loadConfig, type IdemConfig } from './config/config';
import { formatDuration } from './config/duration';
import { applyLogLevel } from './bootstrap/log-levels';
import { startBackground } from './bootstrap/background';
import { providerOfWorker } from './bootstrap/sandbox-beside';
import { startRuntime } from './bootstrap/runtime';
import { exitOnStartupFailure, stopOnSignals } from './bootstrap/process-lifecycle';
import { idemFeatures } from './app.module';

async function main(): Promise<void> {
  const loaded = loadConfig();
  applyLogLevel(loaded.logLevel);
  // Before the database: a worker with no provider to charge stops at once, saying what to set.
  const config = await providerOfWorker(loaded);
  const runtime = await startRuntime(config);
  const background = await startBackground(runtime, idemFeatures());
  // Before the banner, which is what a supervisor or a test waits for before it may signal (main.ts).
  stopOnSignals('finishing running jobs, then stopping', [
    ['worker (running jobs finished, projections stopped)', () => background.stop()],
    ['database', () => runtime.close()],
  ]);
  process.stdout.write(
    `Idem worker ${background.workerId} running (projections, charge jobs, recovery every ${formatDuration(config.worker.recoveryIntervalMs)})\n` +
      `  provider: ${providerLine(config, loaded.payments.stripeApiBase)}\n`,
  );
}

/** Which provider the charge jobs call, loudly: a worker charging another provider than the api's sends orders to review. */
function providerLine(config: IdemConfig, configured: string | undefined): string {
  const base = config.payments.stripeApiBase;
  if (base === undefined) return 'Stripe API https://api.stripe.com';
  return base === configured ? `${base} (STRIPE_API_BASE)` : `the api's sandbox at ${base} (found at IDEM_SANDBOX_PORT)`;
}

main().catch(exitOnStartupFailure('Idem worker'));
