/**
 * The real api (Nest on Fastify, real PostgreSQL) in the test process, on a fresh database, with its
 * own sandbox provider. Requests go through `app.inject` (Fastify's in-process HTTP) or a real port.
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { idemFeatures } from '../../src/app.module';
import { loadConfig } from '../../src/config/config';
import { createHttpApp } from '../../src/bootstrap/http-app';
import { openReadModels, prepareDatabase } from '../../src/bootstrap/read-models';
import { startRuntime, type Runtime } from '../../src/bootstrap/runtime';
import type { Feature } from '../../src/features/feature';
import { StripePaymentGateway, type PaymentGateway } from '../../modules/payments';
import { createSandbox, type Sandbox } from '../../modules/sandbox';
import { createPreparedTestDatabase, createTestDatabase, type TestTemplate } from './test-database';

export interface TestApp {
  app: NestFastifyApplication;
  runtime: Runtime;
  sandbox: Sandbox;
  gateway: PaymentGateway;
  /** Idem's features with this harness's gateway: hand them to startBackground for the worker's side. */
  features: Feature[];
  close(): Promise<void>;
}

/**
 * What the api's start makes of an empty database (the event store's schema, the read-model and
 * feature migrations, version 1 of every read model): built once per run and copied for each app.
 */
const APP_SCHEMA: TestTemplate = {
  key: 'app',
  async prepare(url) {
    const runtime = await startRuntime(loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'error' }));
    try {
      await prepareDatabase(runtime, idemFeatures());
    } finally {
      await runtime.close();
    }
  },
};

export async function startTestApp(label: string, env: Record<string, string> = {}): Promise<TestApp> {
  // The app migrates its database at start all the same; an EventStoreDB app keeps no events in
  // PostgreSQL, so it starts from an empty database as in production.
  const database =
    env.DATABASE_URL ??
    (env.EVENT_STORE === 'esdb' ? await createTestDatabase(label) : await createPreparedTestDatabase(label, APP_SCHEMA));
  const config = loadConfig({
    DATABASE_URL: database,
    LOG_LEVEL: process.env.IDEM_TEST_LOG === '1' ? 'debug' : 'error',
    ...env,
  });
  const runtime = await startRuntime(config);
  const sandbox = await createSandbox();
  const gateway = new StripePaymentGateway({
    secretKey: config.payments.stripeSecretKey,
    baseUrl: sandbox.url,
    // `IDEM_PAYMENT_METHOD=saved_card` makes the worker charge each customer's saved card, as a spec
    // needing a decline asks for it: a customer whose card is Stripe's declining test card.
    paymentMethod: config.payments.paymentMethod,
    maxNetworkRetries: 0,
    timeoutMs: 3000,
  });
  const features = idemFeatures({ paymentGateway: () => gateway });
  const readModels = await openReadModels(runtime, features, 2);
  const app = await createHttpApp(runtime, { features, readModels }, { logger: process.env.IDEM_TEST_LOG === '1' });
  await app.getHttpAdapter().getInstance().ready();
  return {
    app,
    runtime,
    sandbox,
    gateway,
    features,
    async close() {
      await app.close();
      await sandbox.close();
      await readModels.close();
      await runtime.close();
    },
  };
}

export const auth = (role: 'storefront' | 'sync' | 'support' | 'auditor') => ({ authorization: `Bearer dev-${role}` });

/** Serves the api on a free port of 127.0.0.1, for what `inject` cannot send: a real client, a bare socket. */
export async function listenOnFreePort(app: NestFastifyApplication): Promise<{ port: number; url: (path: string) => string }> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = new URL(await app.getUrl());
  return { port: Number(port), url: (path) => `http://127.0.0.1:${port}${path}` };
}

/**
 * The sandbox delivers its webhooks to this app, signed with `secret` (the app's IDEM_WEBHOOK_SECRET): the app
 * is served on a free port for them. Returns the webhook address (to turn deliveries off and on again).
 */
export async function deliverWebhooksTo(harness: TestApp, secret: string): Promise<string> {
  const webhookUrl = (await listenOnFreePort(harness.app)).url('/v1/webhooks/payments');
  harness.sandbox.configureWebhook({ url: webhookUrl, secret });
  return webhookUrl;
}
