/**
 * `npm start`: the whole service in one process on embedded defaults — PostgreSQL, the sandbox
 * provider, the api and the worker — and a banner that says where everything is. With DATABASE_URL /
 * IDEM_TOKENS / STRIPE_* it is a production api process.
 */
import 'reflect-metadata';
import { loadConfig } from './config/config';
import { applyLogLevel } from './bootstrap/log-levels';
import { startupBanner } from './bootstrap/banner';
import { createHttpApp } from './bootstrap/http-app';
import { startSandboxIfEnabled } from './bootstrap/in-process-sandbox';
import { startRuntime } from './bootstrap/runtime';
import { exitOnStartupFailure, stopOnSignals } from './bootstrap/process-lifecycle';
import { addressInUseOr, ensureAddressFree } from './bootstrap/listen-address';
import { startBackground } from './bootstrap/background';
import { stopHttpApi } from './bootstrap/stop-http-api';
import { openReadModels } from './bootstrap/read-models';
import { idemFeatures } from './app.module';
import { createSandbox } from '../modules/sandbox';

async function main(): Promise<void> {
  const loaded = loadConfig();
  applyLogLevel(loaded.logLevel);
  // Before anything starts: a taken port would otherwise show only after the database and the worker.
  await ensureAddressFree(loaded.http);
  // The sandbox first: the features find the provider through the configuration it returns.
  const { config, sandbox } = await startSandboxIfEnabled(loaded, createSandbox);
  // The banner comes once everything is up, which can take a while (a first embedded start creates
  // the cluster; a restart after a crash replaces the orphaned server first): say what is happening.
  process.stdout.write(`Idem starting: ${startingWhat(config.databaseUrl, config.dataDir)}…\n`);
  const runtime = await startRuntime(config);
  const features = idemFeatures();
  const readModels = await openReadModels(runtime, features);
  const background = config.worker.inApiProcess ? await startBackground(runtime, features, { readModels }) : undefined;
  const app = await createHttpApp(runtime, { features, readModels });
  await app.listen({ port: config.http.port, host: config.http.host }).catch((error: unknown) => {
    throw addressInUseOr(error, config.http);
  });
  const url = (await app.getUrl()).replace('[::1]', 'localhost');
  sandbox?.configureWebhook({ url: `${url}/v1/webhooks/payments`, secret: config.payments.webhookSecret });
  const featureLines = features.flatMap((feature) => feature.bannerLines?.(url) ?? []);
  const cliEnvironment = Object.assign({}, ...features.map((feature) => feature.cliEnvironment?.(config) ?? {})) as Record<string, string>;
  // Before the banner: whoever waits for it (an operator, a supervisor, a test) may signal at once, and a
  // SIGTERM that came before the handler would end the process without the graceful stop.
  stopOnSignals('stopping (finishing requests and jobs, then closing the database)…', [
    ['http api (connections drained, requests in flight answered)', () => stopHttpApi(app)],
    ['worker (running jobs finished, projections stopped)', async () => background?.stop()],
    ['read models', () => readModels.close()],
    ['sandbox', async () => sandbox?.close()],
    ['database', () => runtime.close()],
  ]);
  process.stdout.write(
    startupBanner({ config, url, runtime, sandboxUrl: sandbox?.url, worker: background?.workerId, featureLines, cliEnvironment }),
  );
}

const startingWhat = (databaseUrl: string | undefined, dataDir: string) =>
  databaseUrl ? 'connecting to PostgreSQL (DATABASE_URL)' : `embedded PostgreSQL in ${dataDir}, migrations, projections`;

main().catch(exitOnStartupFailure('Idem'));
