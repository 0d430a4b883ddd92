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
