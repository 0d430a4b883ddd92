/**
 * The worker process (production topology): the features' projections, reactors, jobs, schedules and
 * services — for payments the charge and recovery jobs. `npm start` runs the same work inside the api
 * process instead.
 */
import 'reflect-metadata';
import { loadConfig } from './config/config';
import { formatDuration } from './config/duration';
import { applyLogLevel } from './bootstrap/log-levels';
import { startBackground } from './bootstrap/background';
import { startSandboxIfEnabled } from './bootstrap/in-process-sandbox';
import { startRuntime } from './bootstrap/runtime';
import { exitOnStartupFailure, stopOnSignals } from './bootstrap/process-lifecycle';
import { idemFeatures } from './app.module';
import { createSandbox } from '../modules/sandbox';

async function main(): Promise<void> {
  const loaded = loadConfig();
  applyLogLevel(loaded.logLevel);
  const { config, sandbox } = await startSandboxIfEnabled(loaded, createSandbox, { keepState: false });
  const runtime = await startRuntime(config);
  const background = await startBackground(runtime, idemFeatures());
  // Before the banner, which is what a supervisor or a test waits for before it may signal (main.ts).
  stopOnSignals('finishing running jobs, then stopping', [
    ['worker (running jobs finished, projections stopped)', () => background.stop()],
    ['sandbox', async () => sandbox?.close()],
    ['database', () => runtime.close()],
  ]);
  process.stdout.write(
    `Idem worker ${background.workerId} running (projections, charge jobs, recovery every ${formatDuration(config.worker.recoveryIntervalMs)})\n`,
  );
}

main().catch(exitOnStartupFailure('Idem worker'));
