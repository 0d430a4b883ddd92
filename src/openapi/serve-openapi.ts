/**
 * /docs (Swagger UI) and /docs/openapi.json, generated from the controllers Nest registered: every route
 * of every feature appears without the kernel naming one. Roles, bearer auth and problem+json errors
 * come from what the guard, the validation pipe and the error filter already enforce (route-security.ts,
 * validated-bodies.ts, problem-responses.ts).
 */
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { FastifyInstance } from 'fastify';
import { withApiIndex } from './api-index-operation';
import { GENERIC_ERROR_RESPONSES, withProblemJsonErrors } from './problem-responses';
import { BEARER_SCHEME, documentRouteSecurity } from './route-security';
import { documentValidatedBodies } from './validated-bodies';

export const DOCS_PATH = 'docs';
export const OPENAPI_DOCUMENT_PATH = '/docs/openapi.json';

/** Call after the application is initialised and before it listens. */
export function serveOpenApi(app: INestApplication): void {
  documentRouteSecurity(app);
  const withConfiguredBodies = documentValidatedBodies(app);
  const description =
    'Makes payment and sync jobs happen once, however often they are retried. Errors are application/problem+json ' +
    'with a stable `code`; every answer carries `X-Request-Id`. Tokens map to the roles storefront, sync, support and auditor.';
  const config = new DocumentBuilder()
    .setTitle('Idem')
    .setDescription(description)
    .setVersion('v1')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'A token configured in IDEM_TOKENS (dev-<role> in embedded mode).' },
      BEARER_SCHEME,
    )
    .addGlobalResponse(...GENERIC_ERROR_RESPONSES)
    .build();
  // Built on the first request, not at start: most api processes never serve it.
  // `GET /` is registered after this (api-index.ts); the document is built once it is.
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  const document = () =>
    withProblemJsonErrors(
      withApiIndex(withConfiguredBodies(SwaggerModule.createDocument(app, config)), fastify.hasRoute({ method: 'GET', url: '/' })),
    );
  SwaggerModule.setup(DOCS_PATH, app, document, { jsonDocumentUrl: OPENAPI_DOCUMENT_PATH, raw: ['json'] });
}
