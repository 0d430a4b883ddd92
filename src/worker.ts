/**
 * The worker process (production topology): projections, reactors, the charge and recovery jobs.
 * `npm start` runs the same work inside the api process instead.
 */
import 'reflect-metadata';
import { loadConfig } from './config/config';
import { startBackground } from './bootstrap/background';
import { startPaymentProvider } from './bootstrap/payment-provider';
import { startRuntime } from './bootstrap/runtime';
import { exitOnStartupFailure, stopOnSignals } from './bootstrap/process-lifecycle';
import { contactSourcesAt } from '../modules/contacts';

async function main(): Promise<void> {
  const config = loadConfig();
  const runtime = await startRuntime(config);
  const provider = await startPaymentProvider(config);
  const contactSources = contactSourcesAt(provider.sandbox?.url ?? config.payments.stripeApiBase);
  const background = await startBackground(runtime, provider.gateway, { contactSources });
  process.stdout.write(`Idem worker ${background.workerId} running (projections, charge jobs, recovery every ${config.worker.recoveryIntervalMs / 1000}s)\n`);

  stopOnSignals('finishing running jobs, then stopping', [() => background.stop(), () => provider.close(), () => runtime.close()]);
}

main().catch(exitOnStartupFailure('Idem worker'));
