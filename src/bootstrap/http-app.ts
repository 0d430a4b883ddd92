import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule, type ApiParts } from '../app.module';
import { checkAccessBeforeBody, declareRouteAccess } from '../auth/access-before-body';
import { ShowCallerController } from '../auth/show-caller.controller';
import { createValidationPipe } from '../errors/validation-pipe';
import { installJobQueue } from '../jobs/install-job-queue';
import { countHttpRequests } from '../metrics/http-metrics';
import { createMetricsRegistry } from '../metrics/metrics-registry';
import { MetricsModule } from '../metrics/metrics.module';
import { serveOpenApi } from '../openapi/serve-openapi';
import { routeHandlers } from '../openapi/route-handlers';
import { serveApiIndex } from './api-index';
import { httpEdgeOptions, installHttpEdge, jsonBodyParser } from './http-edge';
import { nestLogLevels } from './log-levels';
import type { Runtime } from './runtime';

/** Bodies above this are refused with 413 before any handler runs (DESIGN: > 64 KiB is bad input). */
export const MAX_BODY_BYTES = 64 * 1024;

/** The api's root: the features and kernel routes (AppModule) plus /metrics and who the caller is. */
@Module({ controllers: [ShowCallerController] })
class HttpApiModule {}

/** Builds (but does not start listening) the Nest api on Fastify. Tests use `app.inject` or listen on port 0. */
export async function createHttpApp(
  runtime: Runtime,
  parts: ApiParts,
  options: { logger?: boolean } = {},
): Promise<NestFastifyApplication> {
  // Readiness and /metrics read the job queue, so an api started before any worker installs it too
  // (idempotent, serialised with the worker's own install).
  await installJobQueue(runtime.pool);
  const adapter = new FastifyAdapter({ bodyLimit: MAX_BODY_BYTES, ...httpEdgeOptions });
  installHttpEdge(adapter.getInstance());
  // A route that takes larger bodies says so with @RouteConfig({ bodyLimit }) (the contacts import).
  adapter.getInstance().addHook('onRoute', (route) => {
    const limit = (route.config as { bodyLimit?: unknown } | undefined)?.bodyLimit;
    if (typeof limit === 'number') route.bodyLimit = limit;
  });
  const registry = createMetricsRegistry();
  countHttpRequests(adapter.getInstance(), registry);
  checkAccessBeforeBody(adapter.getInstance(), runtime.config.tokens);
  const root = {
    module: HttpApiModule,
    imports: [AppModule.forRuntime(runtime, parts), MetricsModule.forApi(parts.features, registry, runtime.config)],
  };
  const app = await NestFactory.create<NestFastifyApplication>(root, adapter, {
    // Nest sets them for the whole process: the levels the entry point applied already (log-levels.ts).
    logger: options.logger === false ? false : nestLogLevels(runtime.config.logLevel),
    abortOnError: false,
    // Webhook signatures are computed over the exact bytes received.
    rawBody: true,
  });
  app.useGlobalPipes(createValidationPipe());
  app.useBodyParser('application/json', { bodyLimit: MAX_BODY_BYTES }, jsonBodyParser(adapter.getInstance()));
  // Nest registers its routes in init(): each must carry its access by then.
  declareRouteAccess(routeHandlers(app));
  // No enableShutdownHooks(): the entry points own the stop signals (process-lifecycle.ts) and call
  // app.close(), which runs the same hooks; Nest's own listeners closed HTTP on eleven signals by
  // themselves, outside that order.
  await app.init();
  serveOpenApi(app);
  serveApiIndex(adapter.getInstance());
  return app;
}
