import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule, type ApiParts } from '../app.module';
import { createValidationPipe } from '../errors/validation-pipe';
import type { Runtime } from './runtime';

/** Bodies above this are refused with 413 before any handler runs (DESIGN: > 64 KiB is bad input). */
export const MAX_BODY_BYTES = 64 * 1024;

/** Builds (but does not start listening) the Nest api on Fastify. Tests use `app.inject` or listen on port 0. */
export async function createHttpApp(
  runtime: Runtime,
  parts: ApiParts,
  options: { logger?: boolean } = {},
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({ bodyLimit: MAX_BODY_BYTES });
  // A route that takes larger bodies says so with @RouteConfig({ bodyLimit }) (the contacts import).
  adapter.getInstance().addHook('onRoute', (route) => {
    const limit = (route.config as { bodyLimit?: unknown } | undefined)?.bodyLimit;
    if (typeof limit === 'number') route.bodyLimit = limit;
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRuntime(runtime, parts), adapter, {
    logger: options.logger === false ? false : ['error', 'warn', 'log'],
    abortOnError: false,
    // Webhook signatures are computed over the exact bytes received.
    rawBody: true,
  });
  app.useGlobalPipes(createValidationPipe());
  app.enableShutdownHooks();
  await app.init();
  return app;
}
