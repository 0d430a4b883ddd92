/**
 * Request count and duration of every HTTP answer, labelled by the route template (`/v1/orders/:orderId`,
 * never the raw URL: one series per route, not one per order) and the status. Fastify's onResponse hook
 * sees every answer, including 404s for unknown paths and errors the problem+json filter wrote.
 */
import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, type Registry } from 'prom-client';

/** Paths that match no route share one label, so scanners cannot grow the series without bound. */
const UNMATCHED_ROUTE = 'unmatched';

export function countHttpRequests(fastify: FastifyInstance, registry: Registry): void {
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'idem_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status.',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'idem_http_request_duration_seconds',
    help: 'Time from receiving a request to sending its answer, by method, route template and status.',
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const labels = { method: request.method, route: request.routeOptions.url ?? UNMATCHED_ROUTE, status: String(reply.statusCode) };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
    done();
  });
}
