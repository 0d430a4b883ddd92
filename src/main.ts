/**
 * `npm start`: the whole service in one process on embedded defaults — PostgreSQL, the sandbox
 * provider, the api (and, as they land, the worker and the admin screen) — and a banner that says
 * where everything is. With DATABASE_URL / IDEM_TOKENS / STRIPE_* it is a production api process.
 */
import 'reflect-metadata';
import { loadConfig } from './config/config';
import { startupBanner } from './bootstrap/banner';
import { createHttpApp } from './bootstrap/http-app';
import { startPaymentProvider } from './bootstrap/payment-provider';
import { startRuntime } from './bootstrap/runtime';
import { exitOnStartupFailure, stopOnSignals } from './bootstrap/process-lifecycle';
import { startBackground } from './bootstrap/background';
import { openReadModels } from './bootstrap/read-models';
import { contactSourcesAt } from '../modules/contacts';

async function main(): Promise<void> {
  const config = loadConfig();
  const runtime = await startRuntime(config);
  const provider = await startPaymentProvider(config);
  const readModels = await openReadModels(runtime);
  const contactSources = contactSourcesAt(provider.sandbox?.url ?? config.payments.stripeApiBase);
  const background = config.worker.inApiProcess ? await startBackground(runtime, provider.gateway, { readModels, contactSources }) : undefined;
  const app = await createHttpApp(runtime, { paymentGateway: provider.gateway, orders: readModels.orders, contactSources });
  await app.listen({ port: config.http.port, host: config.http.host });
  const url = (await app.getUrl()).replace('[::1]', 'localhost');
  provider.sandbox?.configureWebhook({ url: `${url}/v1/webhooks/payments`, secret: config.payments.webhookSecret });
  process.stdout.write(startupBanner({ config, url, runtime, sandboxUrl: provider.sandbox?.url, worker: background?.workerId }));

  stopOnSignals('stopping (finishing requests and jobs, then closing the database)…', [
    () => app.close(),
    async () => background?.stop(),
    () => readModels.close(),
    () => provider.close(),
    () => runtime.close(),
  ]);
}

main().catch(exitOnStartupFailure('Idem'));
