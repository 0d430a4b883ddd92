import { randomUUID } from 'node:crypto';
import { auth, startTestApp, type TestApp } from '../../../test/harness/test-app';
import { expectProblem } from '../../../test/harness/expect-problem';

let harness: TestApp;
beforeAll(async () => {
  harness = await startTestApp('bad_input');
});
afterAll(() => harness.close());

const valid = { amount: 1250, currency: 'EUR', customerId: 'cus_42' };
/** Every order event written, settled or not (readAll only shows settled history). */
const orderEventCount = async () =>
  Number((await harness.runtime.pool.query(`SELECT count(*) AS n FROM idem_events WHERE stream_name LIKE 'order-%'`)).rows[0].n);

type Case = [
  label: string,
  request: { url?: string; payload?: unknown; body?: string; headers?: Record<string, string> },
  status: number,
  code: string,
];

const cases: Case[] = [
  ['a missing amount', { payload: { currency: 'EUR', customerId: 'c' } }, 400, 'REQUEST.INVALID'],
  ['a zero amount', { payload: { ...valid, amount: 0 } }, 400, 'REQUEST.INVALID'],
  ['a negative amount', { payload: { ...valid, amount: -5 } }, 400, 'REQUEST.INVALID'],
  ['a fractional amount', { payload: { ...valid, amount: 12.5 } }, 400, 'REQUEST.INVALID'],
  ['an amount as a string', { payload: { ...valid, amount: '1250' } }, 400, 'REQUEST.INVALID'],
  ['a huge amount', { payload: { ...valid, amount: 100_000_000 } }, 400, 'REQUEST.INVALID'],
  ['an unknown currency', { payload: { ...valid, currency: 'EURO' } }, 400, 'REQUEST.INVALID'],
  [
    'a currency the shop does not charge in (IDEM_CURRENCIES, default EUR)',
    { payload: { ...valid, currency: 'USD' } },
    400,
    'REQUEST.INVALID',
  ],
  ['a lower-case currency', { payload: { ...valid, currency: 'eur' } }, 400, 'REQUEST.INVALID'],
  ['a currency as a number', { payload: { ...valid, currency: 978 } }, 400, 'REQUEST.INVALID'],
  ['a customer id with spaces', { payload: { ...valid, customerId: 'cus 42' } }, 400, 'REQUEST.INVALID'],
  ['an empty customer id', { payload: { ...valid, customerId: '' } }, 400, 'REQUEST.INVALID'],
  ['a 65-character customer id', { payload: { ...valid, customerId: 'c'.repeat(65) } }, 400, 'REQUEST.INVALID'],
  ['an unknown field', { payload: { ...valid, coupon: 'FREE' } }, 400, 'REQUEST.INVALID'],
  ['a description that is not a string', { payload: { ...valid, description: { a: 1 } } }, 400, 'REQUEST.INVALID'],
  ['an empty description (Stripe refuses "": leave it out)', { payload: { ...valid, description: '' } }, 400, 'REQUEST.INVALID'],
  ['a JSON array body', { payload: [valid] }, 400, 'REQUEST.INVALID'],
  ['no body at all', { body: '', headers: { 'content-type': 'application/json' } }, 400, 'REQUEST.MALFORMED'],
  ['malformed JSON', { body: '{"amount": 12', headers: { 'content-type': 'application/json' } }, 400, 'REQUEST.MALFORMED'],
  [
    'a form-encoded body',
    { body: 'amount=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    415,
    'REQUEST.UNSUPPORTED_MEDIA_TYPE',
  ],
  ['an XML body', { body: '<amount>1</amount>', headers: { 'content-type': 'application/xml' } }, 415, 'REQUEST.UNSUPPORTED_MEDIA_TYPE'],
  ['a body over 64 KiB', { payload: { ...valid, description: 'x'.repeat(70 * 1024) } }, 413, 'REQUEST.TOO_LARGE'],
  ['an order id with illegal characters', { url: '/v1/orders/o%20rder%3B1/charge', payload: valid }, 400, 'REQUEST.INVALID'],
  ['an over-long order id', { url: `/v1/orders/${'o'.repeat(65)}/charge`, payload: valid }, 400, 'REQUEST.INVALID'],
  ['a bad waitMs', { url: '/v1/orders/ok-1/charge?waitMs=20000', payload: valid }, 400, 'REQUEST.INVALID'],
  ['a bad Idempotency-Key', { payload: valid, headers: { 'idempotency-key': 'k'.repeat(300) } }, 400, 'IDEMPOTENCY_KEY.INVALID'],
  ['no token', { payload: valid, headers: { authorization: '' } }, 401, 'AUTH.TOKEN_REQUIRED'],
  ['an unknown token', { payload: valid, headers: { authorization: 'Bearer nope' } }, 401, 'AUTH.TOKEN_REQUIRED'],
  ['a token of another role', { payload: valid, headers: auth('support') }, 403, 'AUTH.ROLE_FORBIDDEN'],
];

describe('POST /v1/orders/{orderId}/charge with bad input', () => {
  it.each(cases)('refuses %s with a problem+json 4xx and writes nothing', async (_label, request, status, code) => {
    const before = await orderEventCount();
    const response = await harness.app.inject({
      method: 'POST',
      url: request.url ?? `/v1/orders/o-${randomUUID()}/charge`,
      headers: { ...auth('storefront'), ...request.headers },
      ...(request.body !== undefined ? { body: request.body } : { payload: request.payload as object }),
    });
    expectProblem(response, status, code);
    expect(await orderEventCount()).toBe(before);
  });

  it('takes the Bearer scheme in any case, as RFC 9110 says, but never a token in another case', async () => {
    const orderId = `o-${randomUUID()}`;
    const token = auth('storefront').authorization.slice('Bearer '.length);
    const lower = await harness.app.inject({
      method: 'POST',
      url: `/v1/orders/${orderId}/charge`,
      headers: { authorization: `bearer ${token}` },
      payload: valid,
    });
    expect(lower.statusCode).toBe(202);
    const wrongCase = await harness.app.inject({
      method: 'POST',
      url: `/v1/orders/o-${randomUUID()}/charge`,
      headers: { authorization: `Bearer ${token.toUpperCase()}` },
      payload: valid,
    });
    expectProblem(wrongCase, 401, 'AUTH.TOKEN_REQUIRED');
  });

  it('stays up and serves a valid request afterwards', async () => {
    const ok = await harness.app.inject({
      method: 'POST',
      url: `/v1/orders/o-${randomUUID()}/charge`,
      headers: auth('storefront'),
      payload: valid,
    });
    expect(ok.statusCode).toBe(202);
    expect((await harness.app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);
  });
});

describe('query parameters the orders routes do not know', () => {
  it('refuses them with a 400 naming each, and records nothing (a mistyped waitMs is not dropped silently)', async () => {
    const before = await orderEventCount();
    const orderId = `o-${randomUUID()}`;
    const charge = await harness.app.inject({
      method: 'POST',
      url: `/v1/orders/${orderId}/charge?waitMS=500&foo=1`,
      headers: auth('storefront'),
      payload: valid,
    });
    expectProblem(charge, 400, 'REQUEST.INVALID');
    expect(charge.json().errors.map((e: { field: string }) => e.field)).toEqual(['waitMS', 'foo']);
    expect(await orderEventCount()).toBe(before);
  });

  it('refuses ?from= on the events route, which has no such parameter, and ?foo= beside a known minRevision', async () => {
    const events = await harness.app.inject({ url: '/v1/orders/x12/events?from=abc', headers: auth('auditor') });
    expectProblem(events, 400, 'REQUEST.INVALID');
    expect(events.json().errors).toEqual([{ field: 'from', message: 'property from should not exist' }]);
    const order = await harness.app.inject({ url: '/v1/orders/x12?minRevision=0&foo=1', headers: auth('auditor') });
    expectProblem(order, 400, 'REQUEST.INVALID');
    expect(order.json().errors).toEqual([{ field: 'foo', message: 'property foo should not exist' }]);
  });

  it('still takes the parameters the route reads', async () => {
    const orderId = `o-${randomUUID()}`;
    const charge = await harness.app.inject({
      method: 'POST',
      url: `/v1/orders/${orderId}/charge?waitMs=0`,
      headers: auth('storefront'),
      payload: valid,
    });
    expect(charge.statusCode).toBe(202);
  });
});
