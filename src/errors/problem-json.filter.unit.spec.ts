import { Logger, NotFoundException } from '@nestjs/common';
import { AppError } from './app-error';
import { ClientLeft } from './client-left';
import { ProblemJsonFilter } from './problem-json.filter';

describe('ProblemJsonFilter', () => {
  afterEach(() => jest.restoreAllMocks());

  it('answers a client that left with 499 and logs no error: nothing went wrong on our side', () => {
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    expect(new ProblemJsonFilter().toProblem(new ClientLeft('the verification'))).toMatchObject({
      status: 499,
      code: 'REQUEST.CLIENT_LEFT',
      title: 'the client left before the verification ended',
    });
    expect(error).not.toHaveBeenCalled();
  });

  it('logs an unknown error and answers a 500 that leaks nothing of it', () => {
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const problem = new ProblemJsonFilter().toProblem(new Error('connection string postgres://secret@db'));
    expect(problem).toEqual({ type: 'https://idem.dev/problems/INTERNAL', title: 'Internal error', status: 500, code: 'INTERNAL' });
    expect(error).toHaveBeenCalledTimes(1);
  });

  it('answers a store that cannot be reached with 503 STORE.UNAVAILABLE and Retry-After, logged as a warning', () => {
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const sent: { status?: number; headers: Record<string, string>; body?: unknown } = { headers: {} };
    const reply = {
      header: (name: string, value: string) => ((sent.headers[name] = value), reply),
      status: (status: number) => ((sent.status = status), reply),
      send: (body: unknown) => ((sent.body = body), reply),
    };
    const host = { switchToHttp: () => ({ getRequest: () => ({ url: '/v1/orders/481' }), getResponse: () => reply }) };
    new ProblemJsonFilter().catch(refused, host as never);
    expect(sent).toMatchObject({
      status: 503,
      headers: { 'retry-after': '5' },
      body: { status: 503, code: 'STORE.UNAVAILABLE', retryAfterSeconds: 5, instance: '/v1/orders/481' },
    });
    expect(JSON.stringify(sent.body)).not.toContain('127.0.0.1');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(error).not.toHaveBeenCalled();
  });

  it('answers a key still in progress with 409 and a Retry-After of a few seconds, as header and as member', () => {
    const sent: { status?: number; headers: Record<string, string>; body?: unknown } = { headers: {} };
    const reply = {
      header: (name: string, value: string) => ((sent.headers[name] = value), reply),
      status: (status: number) => ((sent.status = status), reply),
      send: (body: unknown) => ((sent.body = body), reply),
    };
    const host = { switchToHttp: () => ({ getRequest: () => ({ url: '/v1/contacts/import' }), getResponse: () => reply }) };
    const busy = new AppError(
      'conflict',
      'IDEMPOTENCY_KEY.IN_PROGRESS',
      'Another request with this Idempotency-Key is still in progress',
      {},
    );
    new ProblemJsonFilter().catch(busy, host as never);
    expect(sent).toMatchObject({
      status: 409,
      headers: { 'retry-after': '2' },
      body: { status: 409, code: 'IDEMPOTENCY_KEY.IN_PROGRESS', retryAfterSeconds: 2 },
    });
  });

  it('sends no Retry-After with another 409', () => {
    const headers: Record<string, string> = {};
    const reply = { header: (name: string, value: string) => ((headers[name] = value), reply), status: () => reply, send: () => reply };
    const host = { switchToHttp: () => ({ getRequest: () => ({ url: '/x' }), getResponse: () => reply }) };
    new ProblemJsonFilter().catch(new AppError('conflict', 'ORDER.PROVIDER_CHECK_STALE', 'changed', {}), host as never);
    expect(headers).not.toHaveProperty('retry-after');
  });

  it('names the path of the request as the instance, without its query string', () => {
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const sent: { status?: number; body?: { instance?: string } } = {};
    const reply = {
      header: () => reply,
      status: (status: number) => ((sent.status = status), reply),
      send: (body: { instance?: string }) => ((sent.body = body), reply),
    };
    const host = {
      switchToHttp: () => ({ getRequest: () => ({ url: `/v1/support/search?q=${'x'.repeat(3000)}` }), getResponse: () => reply }),
    };
    new ProblemJsonFilter().catch(new Error('boom'), host as never);
    expect(sent).toMatchObject({ status: 500, body: { instance: '/v1/support/search' } });
  });

  it('names an unknown route by its path alone, not by the query string Nest puts in its message', () => {
    const sent: { status?: number; body?: unknown } = {};
    const reply = {
      header: () => reply,
      status: (status: number) => ((sent.status = status), reply),
      send: (body: unknown) => ((sent.body = body), reply),
    };
    const url = '/v1/no-such-route?token=secret-value';
    const host = { switchToHttp: () => ({ getRequest: () => ({ method: 'GET', url }), getResponse: () => reply }) };
    new ProblemJsonFilter().catch(new NotFoundException(`Cannot GET ${url}`), host as never);
    expect(sent).toEqual({
      status: 404,
      body: {
        type: 'https://idem.dev/problems/ROUTE.NOT_FOUND',
        title: 'Cannot GET /v1/no-such-route',
        status: 404,
        code: 'ROUTE.NOT_FOUND',
        instance: '/v1/no-such-route',
      },
    });
  });
});
