/**
 * The worker process (production topology): projections, reactors, the charge and recovery jobs.
 * `npm start` runs the same work inside the api process instead.
 */
import 'reflect-metadata';
import { loadConfig } from './config/config';
import { ConfigError } from './config/config-error';
import { startBackground } from './bootstrap/background';
import { startPaymentProvider } from './bootstrap/payment-provider';
import { startRuntime } from './bootstrap/runtime';

async function main(): Promise<void> {
  const config = loadConfig();
  const runtime = await startRuntime(config);
  const provider = await startPaymentProvider(config);
  const background = await startBackground(runtime, provider.gateway);
  process.stdout.write(`Idem worker ${background.workerId} running (projections, charge jobs, recovery every ${config.worker.recoveryIntervalMs / 1000}s)\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${signal}: finishing running jobs, then stopping\n`);
    await background.stop();
    await provider.close();
    await runtime.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  process.stderr.write(error instanceof ConfigError ? `${error.message}\n` : `Idem worker failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
