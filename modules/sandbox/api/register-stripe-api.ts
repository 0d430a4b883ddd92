import type { FastifyError, FastifyInstance } from 'fastify';
import type { SandboxState } from '../sandbox-state';
import { authenticationProblem } from './authenticate';
import { answer } from './exchange';
import { decodeForm } from './form-encoding';
import { apiError, invalidRequest } from './stripe-errors';

const isStripeApi = (url: string): boolean => url.startsWith('/v1/');

/** What every Stripe API route shares: form bodies, Bearer auth, Stripe-shaped 404s and 500s. */
export function registerStripeApi(app: FastifyInstance, state: SandboxState): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, decodeForm(body as string));
  });

  app.addHook('onRequest', async (request, reply) => {
    if (!isStripeApi(request.url)) return;
    const problem = authenticationProblem(request.headers.authorization);
    if (problem) return answer(state, request, reply, problem.status, problem.body);
  });

  app.setNotFoundHandler((request, reply) => {
    if (!isStripeApi(request.url)) return reply.code(404).send({ error: `no route ${request.method} ${request.url}` });
    const message = `Unrecognized request URL (${request.method}: ${request.url.split('?')[0]}).`;
    return answer(state, request, reply, 404, invalidRequest(message).body);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (!isStripeApi(request.url)) return reply.code(status).send({ error: error.message });
    const problem = status < 500 ? { status, body: invalidRequest(error.message).body } : apiError('An unknown error occurred');
    return answer(state, request, reply, problem.status, problem.body);
  });
}
