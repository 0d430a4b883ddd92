/**
 * Every error answer is `application/problem+json` (src/errors/problem-json.filter.ts): the document
 * says so once, as a `Problem` schema, and gives each operation's error responses that content.
 */
import type { OpenAPIObject } from '@nestjs/swagger';

const PROBLEM_SCHEMA = {
  type: 'object',
  required: ['type', 'title', 'status', 'code'],
  properties: {
    type: { type: 'string', format: 'uri', example: 'https://idem.dev/problems/ORDER.CHARGE_MISMATCH' },
    title: { type: 'string' },
    status: { type: 'integer', example: 422 },
    code: { type: 'string', description: 'Stable error code, e.g. ORDER.CHARGE_MISMATCH or REQUEST.INVALID.' },
    detail: { type: 'string' },
    instance: { type: 'string', description: 'The request path.' },
    errors: {
      type: 'array',
      description: 'Validation errors, one per field.',
      items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } },
    },
  },
  additionalProperties: true,
};

/** Answers every operation may give besides its own: bad input or a missing resource, and server trouble. */
export const GENERIC_ERROR_RESPONSES = [
  { status: '4XX', description: 'Bad input, unknown resource or conflict, as problem+json with a stable `code`.' },
  { status: '5XX', description: 'The service could not answer (a dependency is down); nothing was acknowledged.' },
] as const;

export function withProblemJsonErrors(document: OpenAPIObject): OpenAPIObject {
  document.components = { ...document.components, schemas: { ...document.components?.schemas, Problem: PROBLEM_SCHEMA } };
  const content = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };
  for (const pathItem of Object.values(document.paths)) {
    for (const operation of Object.values(pathItem)) {
      const responses = (operation as { responses?: Record<string, { content?: unknown }> }).responses ?? {};
      // A response that says what it answers keeps it (GET /health/ready's 503 is its readiness body).
      for (const [status, response] of Object.entries(responses)) if (/^[45]/.test(status) && !response.content) response.content = content;
    }
  }
  return document;
}
