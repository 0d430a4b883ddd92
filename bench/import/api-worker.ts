/**
 * The production topology of docker-compose.yml on one machine: the api process (IDEM_WORKER_IN_API
 * false) and `worker.js` beside it, on the api's embedded PostgreSQL. `npm start` runs both in one
 * Node process, which a push keeps busy on one core (about 290 µs of its CPU per record, one profiled
 * run): the api's commands and the worker's projections then take turns on it while the second core
 * is half idle. Apart, each has a core's worth of event loop; bench:import reports both figures.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { memoryMb, REPO, startScriptNodeFlags, startService, type ServiceProcess } from '../charges/service';

export interface ApiAndWorker {
  api: ServiceProcess;
  worker: ChildProcess;
  /** Largest sum of the two processes' resident memory seen so far (sampled every 200 ms), MiB. */
  peakRssMb(): number;
  stop(): Promise<void>;
}

export async function startApiAndWorker(mainJs: string, env: Record<string, string>): Promise<ApiAndWorker> {
  const api = await startService(mainJs, { ...env, IDEM_WORKER_IN_API: 'false' }, { execArgv: startScriptNodeFlags() });
  const worker = spawn(process.execPath, [...startScriptNodeFlags(), join(dirname(mainJs), 'worker.js')], {
    cwd: REPO,
    // The worker charges through the api's sandbox instead of starting one of its own.
    env: { ...process.env, DATABASE_URL: api.databaseUrl, STRIPE_API_BASE: api.sandboxUrl, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
      if (/Idem worker \S+ running/.test(output)) resolve();
    };
    worker.stdout!.on('data', onData);
    worker.stderr!.on('data', onData);
    worker.once('exit', (code) => reject(new Error(`the worker exited with ${code} before it was ready:\n${output}`)));
  });
  try {
    await ready;
  } catch (error) {
    await api.stop();
    throw error;
  }
  let peak = 0;
  // A process that has exited but is not yet reaped reads as NaN: such a sample is skipped.
  const rssOf = (pid: number | undefined) => memoryMb(pid)?.rss ?? 0;
  const sample = () => {
    const sum = rssOf(api.pid) + rssOf(worker.pid);
    if (Number.isFinite(sum)) peak = Math.max(peak, sum);
    return peak;
  };
  const sampler = setInterval(sample, 200);
  return {
    api,
    worker,
    peakRssMb: sample,
    stop: async () => {
      clearInterval(sampler);
      if (worker.exitCode === null && worker.signalCode === null) {
        const exited = new Promise((resolve) => worker.once('exit', resolve));
        worker.kill('SIGTERM');
        await exited;
      }
      await api.stop();
    },
  };
}
