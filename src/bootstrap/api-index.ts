/**
 * `GET /`: the address the banner prints for the api answered 404. It now says where things are: a
 * small JSON index of the OpenAPI document, the docs, health, metrics and the admin screen (relative
 * links, right behind a proxy too), or, for a browser (which asks for HTML), a redirect to the admin
 * screen. Public like /health and /docs: it names addresses the README prints anyway, nothing else.
 * Each link is listed only when that route is registered, so the index never points at a 404 (an api
 * built without the support feature has no /admin).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

const LINKS = {
  openapi: '/docs/openapi.json',
  docs: '/docs',
  live: '/health/live',
  ready: '/health/ready',
  metrics: '/metrics',
  admin: '/admin',
} as const;

/** What `GET /` answers an API client: the service, its contract version, and the routes to start from. */
export function apiIndex(registered: (path: string) => boolean): Record<string, unknown> {
  const links = Object.fromEntries(Object.entries(LINKS).filter(([, path]) => registered(path)));
  return {
    service: 'idem',
    api: 'v1',
    description: 'Makes payment and sync jobs happen once, however often they are retried. Routes and roles: see openapi.',
    links,
  };
}

/** A browser's navigation asks for HTML first; fetch, curl and the SDKs ask for JSON or anything. */
function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return /\btext\/html\b/i.test(accept) && !/\bapplication\/(problem\+)?json\b/i.test(accept);
}

/** Call once every other route is registered (after app.init() and the docs). */
export function serveApiIndex(instance: FastifyInstance): void {
  const registered = (path: string) => instance.hasRoute({ method: 'GET', url: path });
  const index = apiIndex(registered);
  const hasAdmin = registered(LINKS.admin);
  instance.get('/', (request, reply) => {
    if (hasAdmin && wantsHtml(request)) return reply.redirect(LINKS.admin, 302);
    return reply.header('cache-control', 'no-cache').send(index);
  });
}
