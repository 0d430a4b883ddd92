/**
 * The real api (Nest on Fastify, real PostgreSQL) in the test process, on a fresh database.
 * Requests go through `app.inject` (Fastify's in-process HTTP) or a real port via `app.listen`.
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '../../src/config/config';
import { createHttpApp } from '../../src/bootstrap/http-app';
import { startRuntime, type Runtime } from '../../src/bootstrap/runtime';
import { createTestDatabase } from './test-database';

export interface TestApp {
  app: NestFastifyApplication;
  runtime: Runtime;
  close(): Promise<void>;
}

export async function startTestApp(label: string, env: Record<string, string> = {}): Promise<TestApp> {
  const config = loadConfig({ DATABASE_URL: await createTestDatabase(label), ...env });
  const runtime = await startRuntime(config);
  const app = await createHttpApp(runtime, { logger: false });
  await app.getHttpAdapter().getInstance().ready();
  return {
    app,
    runtime,
    async close() {
      await app.close();
      await runtime.close();
    },
  };
}

export const auth = (role: 'storefront' | 'sync' | 'support' | 'auditor') => ({ authorization: `Bearer dev-${role}` });
