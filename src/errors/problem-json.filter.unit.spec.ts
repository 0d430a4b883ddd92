import { Logger } from '@nestjs/common';
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

  describe('when the database cannot be reached', () => {
    const outages: Array<[string, Error]> = [
      ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
      [
        'a server shut down under the request',
        Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      ],
      ['a server still starting', Object.assign(new Error('the database system is starting up'), { code: '57P03' })],
      ['a connection that ended', new Error('Connection terminated unexpectedly')],
      ['a pool with no connection in time', new Error('timeout exceeded when trying to connect')],
    ];
    it.each(outages)('answers %s with a 503 to retry, and logs a warning, not an error', (_, exception) => {
      const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      expect(new ProblemJsonFilter().toProblem(exception)).toEqual({
        type: 'https://idem.dev/problems/SERVICE.DATABASE_UNAVAILABLE',
        title: 'The database is unavailable; send the request again',
        status: 503,
        code: 'SERVICE.DATABASE_UNAVAILABLE',
        retryAfterSeconds: 5,
      });
      expect(warn).toHaveBeenCalledTimes(1);
      expect(error).not.toHaveBeenCalled();
    });

    it('says when to send it again in Retry-After', () => {
      jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      const headers: Record<string, string> = {};
      const reply = {
        header: (name: string, value: string) => ((headers[name] = value), reply),
        status: () => reply,
        send: () => reply,
      };
      const host = { switchToHttp: () => ({ getRequest: () => ({ url: '/v1/orders/1/charge' }), getResponse: () => reply }) };
      new ProblemJsonFilter().catch(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), host as never);
      expect(headers['retry-after']).toBe('5');
    });

    it('still answers a query the database refused for another reason with a 500', () => {
      jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      const refused = Object.assign(new Error('relation "orders_v9" does not exist'), { code: '42P01' });
      expect(new ProblemJsonFilter().toProblem(refused)).toMatchObject({ status: 500, code: 'INTERNAL' });
    });
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
});
