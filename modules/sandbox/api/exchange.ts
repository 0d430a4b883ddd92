import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FaultKind } from '../faults/fault';
import type { SandboxState } from '../sandbox-state';

/**
 * One Stripe API call from arrival to its answer (or to the lack of one). Every /v1 response leaves
 * through `answer` or `abandon`, so each call is logged exactly once, answered or not.
 */
export interface Exchange {
  requestId: string;
  method: string;
  path: string;
  receivedAt: string;
  idempotencyKey: string | null;
  orderId: string | null;
  replayed: boolean;
  fault: FaultKind | null;
}

const exchanges = new WeakMap<FastifyRequest, Exchange>();

export function exchangeOf(request: FastifyRequest, state: SandboxState): Exchange {
  let exchange = exchanges.get(request);
  if (!exchange) {
    const key = request.headers['idempotency-key'];
    exchange = {
      requestId: request.id,
      method: request.method,
      path: request.url.split('?')[0],
      receivedAt: new Date(state.clock()).toISOString(),
      // Stripe ignores the header on GET and DELETE.
      idempotencyKey: request.method === 'POST' && typeof key === 'string' ? key : null,
      orderId: null,
      replayed: false,
      fault: null,
    };
    exchanges.set(request, exchange);
  }
  return exchange;
}

export function answer(
  state: SandboxState,
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  body: string | object,
  headers: Record<string, string> = {},
): FastifyReply {
  const exchange = exchangeOf(request, state);
  record(state, exchange, status);
  return reply
    .code(status)
    .headers(headers)
    .type('application/json')
    .send(typeof body === 'string' ? body : JSON.stringify(body));
}

/** Leaves the client without an answer: a plain close (`drop`) or a TCP RST (`reset`). */
export function abandon(state: SandboxState, request: FastifyRequest, reply: FastifyReply, how: 'drop' | 'reset'): FastifyReply {
  record(state, exchangeOf(request, state), null);
  reply.hijack();
  const socket = request.raw.socket;
  if (how === 'reset' && !socket.destroyed) socket.resetAndDestroy();
  else socket.destroy();
  return reply;
}

function record(state: SandboxState, exchange: Exchange, status: number | null): void {
  const entry = {
    requestId: exchange.requestId,
    method: exchange.method,
    path: exchange.path,
    idempotencyKey: exchange.idempotencyKey,
    orderId: exchange.orderId,
    status,
    replayed: exchange.replayed,
    fault: exchange.fault,
    time: exchange.receivedAt,
  };
  state.requestLog.record(entry);
  state.signals.emit('request-logged', entry);
}
