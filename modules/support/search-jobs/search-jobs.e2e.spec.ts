/**
 * GET /v1/support/search?q=: support pastes whatever id the customer has, and every id of a job finds
 * that job, with the same answer.
 */
import { randomUUID } from 'node:crypto';
import { expectProblem } from '../../../test/harness/expect-problem';
import { paidOrder, requestCharge, startSupportCases, type SupportCases } from '../../../test/harness/support-cases';
import { auth } from '../../../test/harness/test-app';
import { waitUntil } from '../../../test/harness/wait-until';

let cases: SupportCases;
beforeAll(async () => {
  cases = await startSupportCases('support_search');
});
afterAll(() => cases.close());

type Role = Parameters<typeof auth>[0];
const search = (q: string, role: Role = 'support') =>
  cases.harness.app.inject({ method: 'GET', url: `/v1/support/search?q=${encodeURIComponent(q)}`, headers: auth(role) });
/** Search once the read model shows what the test wrote (it is projected asynchronously). */
const searchUntil = async (q: string, done: (results: Array<Record<string, unknown>>) => boolean) =>
  waitUntil(async () => (await search(q)).json().results as Array<Record<string, unknown>>, done, 15_000);

describe('GET /v1/support/search', () => {
  describe('for a paid order', () => {
    const customerId = `cus-${randomUUID()}`;
    const requestId = `req-${randomUUID()}`;
    let orderId: string;
    beforeAll(async () => {
      orderId = await paidOrder(cases, { customerId, requestId });
      await searchUntil(orderId, (results) => results[0]?.status === 'done');
    });

    it('finds the same job by order id, customer id, charge id, intent id, request id and job id', async () => {
      // The orders read model follows the charge's last event a moment later: read once it shows it.
      const order = await waitUntil(
        async () => (await cases.harness.app.inject({ url: `/v1/orders/${orderId}`, headers: auth('support') })).json(),
        (view: { status: string; providerChargeId: string; paymentIntentId: string; revision: number }) => view.status === 'paid',
        15_000,
      );
      expect(order).toMatchObject({ providerChargeId: expect.any(String), paymentIntentId: expect.any(String) });
      const job = {
        kind: 'charge-order',
        orderId,
        customerId,
        jobId: `charge-order:${orderId}`,
        requestId,
        externalReference: order.providerChargeId,
        status: 'done',
        attempts: 1,
        lastError: null,
        lastRetryAt: null,
        updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        revision: order.revision,
      };
      for (const q of [orderId, customerId, order.providerChargeId, order.paymentIntentId, requestId, `charge-order:${orderId}`]) {
        const answer = await search(q);
        expect({ q, status: answer.statusCode, body: answer.json() }).toEqual({
          q,
          status: 200,
          body: { results: [job], total: 1, next: null },
        });
      }
    });
  });

  it("lists every order of a customer, newest first, with a pending one's status", async () => {
    const customerId = `cus-${randomUUID()}`;
    const first = await paidOrder(cases, { customerId });
    const second = await requestCharge(cases.harness, { customerId });
    const results = await searchUntil(customerId, (found) => found.length === 2);
    expect(results.map((job) => [job.orderId, job.status])).toEqual([
      [second, 'pending'],
      [first, 'done'],
    ]);
  });

  describe('for a customer with more jobs than a page', () => {
    const customerId = `cus-${randomUUID()}`;
    const orders: string[] = [];
    beforeAll(async () => {
      for (let n = 0; n < 5; n++) orders.push(await requestCharge(cases.harness, { customerId }));
      await searchUntil(customerId, (found) => found.length === orders.length);
    });

    const page = async (query: string) => {
      const answer = await cases.harness.app.inject({ url: `/v1/support/search?q=${customerId}${query}`, headers: auth('support') });
      expect(answer.statusCode).toBe(200);
      return answer.json<{ results: Array<{ orderId: string }>; total: number; next: string | null }>();
    };

    it('says how many there are and reaches each exactly once by following next, in the order of one long page', async () => {
      const pages = [await page('&limit=2')];
      while (pages.at(-1)!.next) pages.push(await page(`&limit=2&cursor=${pages.at(-1)!.next}`));
      expect(pages.map((p) => [p.results.length, p.total])).toEqual([
        [2, 5],
        [2, 5],
        [1, 5],
      ]);
      const paged = pages.flatMap((p) => p.results.map((job) => job.orderId));
      expect(paged).toEqual((await page('')).results.map((job) => job.orderId));
      expect([...paged].sort()).toEqual([...orders].sort());
    });

    it('answers the whole list on one page, with no next, when the limit covers it', async () => {
      expect(await page('&limit=5')).toMatchObject({ total: 5, next: null, results: expect.any(Array) });
    });
  });

  it.each([
    ['limit', 'zero', '&limit=0'],
    ['limit', 'above 200', '&limit=201'],
    ['limit', 'not a number', '&limit=ten'],
    ['limit', 'given twice', '&limit=1&limit=2'],
    ['cursor', 'not base64url', '&cursor=a%2Fb'],
    ['cursor', 'not one this service wrote', `&cursor=${Buffer.from('["yesterday","x"]').toString('base64url')}`],
    // A job id holding NUL is refused before the query: PostgreSQL cannot compare it as text (a 500).
    ['cursor', 'naming a job id with NUL', `&cursor=${Buffer.from('["2026-12-03T10:45:56.744Z","a\\u0000b"]').toString('base64url')}`],
  ])('refuses a %s that is %s with a 400 problem naming it', async (field, _case, query) => {
    const answer = await cases.harness.app.inject({ url: `/v1/support/search?q=x${query}`, headers: auth('support') });
    expectProblem(answer, 400, 'REQUEST.INVALID');
    expect(new Set(answer.json().errors.map((e: { field: string }) => e.field))).toEqual(new Set([field]));
  });

  it('finds a contacts import run by its run id and by the request id that started it', async () => {
    const requestId = `req-${randomUUID()}`;
    const imported = await cases.harness.app.inject({
      method: 'POST',
      url: '/v1/contacts/import',
      headers: { ...auth('sync'), 'x-request-id': requestId },
      payload: { source: 'crm', records: [{ sourceId: `s-${randomUUID()}`, version: 1, fields: { email: 'a@example.com' } }] },
    });
    expect(imported.statusCode).toBe(200);
    const { runId } = imported.json();
    // The run ends a moment after the answer: wait for its last status, or the second search may see a newer one.
    const [byRequest] = await searchUntil(requestId, (found) => found.length === 1 && found[0].status === 'done');
    expect(byRequest).toMatchObject({ kind: 'import-run', jobId: `import-run:${runId}`, requestId, externalReference: 'crm' });
    expect(byRequest).not.toHaveProperty('orderId');
    expect((await search(runId)).json().results).toEqual([byRequest]);
  });

  it('answers an empty list for an id it does not know', async () => {
    expect((await search(`unknown-${randomUUID()}`)).json()).toEqual({ results: [], total: 0, next: null });
  });

  it.each([
    ['empty', '?q='],
    ['blank', '?q=%20%20'],
    ['longer than any id (129 characters)', `?q=${'x'.repeat(129)}`],
    ['two ids', '?q=a&q=b'],
    ['missing', ''],
  ])('refuses a q that is %s with a 400 problem naming q', async (_case, query) => {
    const answer = await cases.harness.app.inject({ method: 'GET', url: `/v1/support/search${query}`, headers: auth('support') });
    expectProblem(answer, 400, 'REQUEST.INVALID');
    expect(new Set(answer.json().errors.map((e: { field: string }) => e.field))).toEqual(new Set(['q']));
  });

  it('is for the support role only', async () => {
    expect((await search('x', 'storefront')).statusCode).toBe(403);
    expect((await cases.harness.app.inject({ method: 'GET', url: '/v1/support/search?q=x' })).statusCode).toBe(401);
  });
});
