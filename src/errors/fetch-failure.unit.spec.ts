import { describeFetchFailure } from './fetch-failure';

describe('describeFetchFailure', () => {
  const failed = (cause: unknown) => Object.assign(new TypeError('fetch failed'), { cause });

  it("gives undici's own codes with its words, which say what happened", () => {
    expect(describeFetchFailure(failed({ code: 'UND_ERR_SOCKET', message: 'other side closed' }))).toBe(
      'fetch failed: other side closed (UND_ERR_SOCKET)',
    );
  });

  it("gives a system error's code, as its message repeats it with an address", () => {
    expect(describeFetchFailure(failed({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:9' }))).toBe(
      'fetch failed: ECONNREFUSED',
    );
  });

  it('gives the message alone without a cause, and the value of anything that is not an error', () => {
    expect(describeFetchFailure(new Error('aborted'))).toBe('aborted');
    expect(describeFetchFailure('boom')).toBe('boom');
  });
});
