/**
 * `GET /` (src/bootstrap/api-index.ts) is a route of Fastify's own, outside Nest's controllers, so the
 * document generator never sees it; it is added here when the api serves it, as the other public routes
 * are documented: no authentication, its answers, and the generic errors.
 */
import type { OpenAPIObject } from '@nestjs/swagger';
import { apiIndex } from '../bootstrap/api-index';
import { GENERIC_ERROR_RESPONSES } from './problem-responses';

/** The index with every link it can list. */
const FULL_INDEX = apiIndex(() => true) as { links: Record<string, string> };

export function withApiIndex(document: OpenAPIObject, served: boolean): OpenAPIObject {
  if (!served) return document;
  const errors = Object.fromEntries(GENERIC_ERROR_RESPONSES.map(({ status, description }) => [status, { description }]));
  document.paths = {
    '/': {
      get: {
        summary: 'Where to start',
        description:
          'The address the start banner prints: the service, its contract version and relative links to the routes to start from ' +
          '(a link is listed only when its route is served). Query parameters are ignored.\n\nNo authentication.',
        responses: {
          '200': {
            description: 'The index, as JSON.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['service', 'api', 'description', 'links'],
                  properties: {
                    service: { type: 'string', example: 'idem' },
                    api: { type: 'string', example: 'v1' },
                    description: { type: 'string' },
                    links: {
                      type: 'object',
                      properties: Object.fromEntries(
                        Object.entries(FULL_INDEX.links).map(([name, path]) => [name, { type: 'string', example: path }]),
                      ),
                    },
                  },
                },
              },
            },
          },
          '302': { description: 'A browser (asking for text/html, not JSON) is sent to the admin screen, /admin.' },
          ...errors,
        },
      },
    },
    ...document.paths,
  };
  return document;
}
