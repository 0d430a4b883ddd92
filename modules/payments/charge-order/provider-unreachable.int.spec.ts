/**
 * The provider's process gone (docker-compose's `sandbox` service SIGKILLed, Stripe's address not
 * answering): a call whose every try was refused before a byte left (ECONNREFUSED) ran nothing at the
 * provider. It is recorded as such and does not count as an unknown outcome, so a provider down for
 * two minutes no longer sends every order in flight to review as "5 consecutive unknown outcomes"
 * (found by the crash round: 20 of 20 orders, none charged). A call that reached the provider and
 * only then lost its connection stays unknown, however its last try failed.
 */
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { Pool } from 'pg';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import { createTestDatabase } from '../../../test/harness/test-database';
import { requestedOrder } from '../../../test/harness/requested-order';
import { noOutsidePayments } from '../../../test/harness/outside-payments';
import { createSandbox, isSucceededCharge, type Sandbox } from '../../sandbox';
import { loadOrder } from '../load-order';
import { orderStream, type ChargeOutcomeUnknown } from '../order.events';
import { StripePaymentGateway } from '../payment-gateway/stripe.payment-gateway';
import { MAX_CONSECUTIVE_NOT_SENT, MAX_CONSECUTIVE_UNKNOWN } from './charge-order.decision';
import { ChargeOutcomeStillUnknown, chargeOrder, type ChargeOrderDeps } from './charge-order.job';

let pool: Pool;
let store: PostgresEventStore;

beforeAll(async () => {
  pool = new Pool({ connectionString: await createTestDatabase('provider_unreachable'), max: 10 });
  store = new PostgresEventStore(pool);
  await store.migrate();
});
afterAll(async () => {
  await pool.end();
});

/** A port nothing listens on (taken by the OS, then given back). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const depsAt = (port: number, maxNetworkRetries = 1): ChargeOrderDeps => ({
  store,
  workerId: 'w1',
  outsidePayments: noOutsidePayments,
  gateway: new StripePaymentGateway({ secretKey: 'sk_test_idem', baseUrl: `http://127.0.0.1:${port}`, maxNetworkRetries, timeoutMs: 2000 }),
});

const requestCharge = () => requestedOrder(store);

const unknownOutcomes = async (orderId: string) =>
  (await store.readStream(orderStream(orderId)))
    .filter((e) => e.type === 'ChargeOutcomeUnknown')
    .map((e) => e.data as ChargeOutcomeUnknown['data']);

/**
 * One run against a fake provider `server` whose first try is sent and lost (retries off, so only
 * stripe-node's own retry of a reset follows): the outcome recorded, checked to be an unknown one that
 * counts towards the stop rule, since the first try may have charged.
 */
async function lostAnswerFrom(server: Server): Promise<ChargeOutcomeUnknown['data']> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const orderId = await requestCharge();
  await runExpectingStillUnknown(depsAt((server.address() as { port: number }).port, 0), orderId);
  const [outcome] = await unknownOutcomes(orderId);
  expect(outcome.notSent).toBeUndefined();
  expect((await loadOrder(store, orderId)).state).toMatchObject({ status: 'unknown', consecutiveUnknown: 1 });
  return outcome;
}

/** One run of the job as the queue runs it: an open outcome ends the run with ChargeOutcomeStillUnknown. */
async function runExpectingStillUnknown(deps: ChargeOrderDeps, orderId: string): Promise<void> {
  await expect(chargeOrder(deps, orderId)).rejects.toBeInstanceOf(ChargeOutcomeStillUnknown);
}

describe('chargeOrder while the provider cannot be reached', () => {
  describe('when every try of each call is refused before it is sent', () => {
    let sandbox: Sandbox | undefined;
    afterEach(async () => {
      await sandbox?.close();
      sandbox = undefined;
    });

    it('records each call as not sent, keeps the order open past the unknown-outcome stop rule, and charges once when the provider is back', async () => {
      const port = await closedPort();
      const orderId = await requestCharge();

      for (let run = 0; run < MAX_CONSECUTIVE_UNKNOWN + 1; run++) await runExpectingStillUnknown(depsAt(port), orderId);

      const recorded = await unknownOutcomes(orderId);
      expect(recorded).toHaveLength(MAX_CONSECUTIVE_UNKNOWN + 1);
      for (const outcome of recorded) expect(outcome).toMatchObject({ notSent: true, error: expect.stringMatching(/ECONNREFUSED/) });
      expect((await loadOrder(store, orderId)).state).toMatchObject({ status: 'unknown', consecutiveUnknown: 0 });

      // The provider's process is started again on its address, holding the customer as before.
      sandbox = await createSandbox({ port });
      sandbox.createCustomer({ id: 'cus_1' });
      expect(await chargeOrder(depsAt(port), orderId)).toBe('settled');
      expect((await loadOrder(store, orderId)).state.status).toBe('paid');
      expect(sandbox.charges({ orderId }).filter(isSucceededCharge)).toHaveLength(1);
    });

    it(`hands the order to a person after ${MAX_CONSECUTIVE_NOT_SENT} such calls in a row`, async () => {
      const port = await closedPort();
      const orderId = await requestCharge();

      for (let run = 0; run < MAX_CONSECUTIVE_NOT_SENT - 1; run++) await runExpectingStillUnknown(depsAt(port), orderId);
      expect((await loadOrder(store, orderId)).state.status).toBe('unknown');
      expect(await chargeOrder(depsAt(port), orderId)).toBe('settled');

      const { state } = await loadOrder(store, orderId);
      expect(state.status).toBe('needs_review');
      expect(state.lastError).toMatch(new RegExp(`provider ran none of ${MAX_CONSECUTIVE_NOT_SENT} calls in a row`));
    });
  });

  describe('when the provider answers every call 429, rate limited (it ran none of them)', () => {
    let sandbox: Sandbox;
    beforeEach(async () => {
      sandbox = await createSandbox({ port: 0 });
      sandbox.createCustomer({ id: 'cus_1' });
    });
    afterEach(() => sandbox.close());

    const rateLimitAll = (orderId: string) =>
      fetch(`${sandbox.url}/_sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'rate_limit', orderId, probability: 1 }),
      });

    it('records each call as not sent, keeps the order open past the unknown-outcome stop rule, and charges once when the limit lifts', async () => {
      const port = sandbox.port;
      const orderId = await requestCharge();
      await rateLimitAll(orderId);

      for (let run = 0; run < MAX_CONSECUTIVE_UNKNOWN + 1; run++) await runExpectingStillUnknown(depsAt(port), orderId);

      const recorded = await unknownOutcomes(orderId);
      expect(recorded).toHaveLength(MAX_CONSECUTIVE_UNKNOWN + 1);
      for (const outcome of recorded)
        expect(outcome).toMatchObject({ notSent: true, error: expect.stringMatching(/StripeRateLimitError/) });
      expect((await loadOrder(store, orderId)).state).toMatchObject({ status: 'unknown', consecutiveUnknown: 0 });

      await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
      expect(await chargeOrder(depsAt(port), orderId)).toBe('settled');
      expect((await loadOrder(store, orderId)).state.status).toBe('paid');
      expect(sandbox.charges({ orderId }).filter(isSucceededCharge)).toHaveLength(1);
    });

    it(`hands the order to a person after ${MAX_CONSECUTIVE_NOT_SENT} such calls in a row, saying the provider ran none of them`, async () => {
      const orderId = await requestCharge();
      await rateLimitAll(orderId);

      for (let run = 0; run < MAX_CONSECUTIVE_NOT_SENT - 1; run++) await runExpectingStillUnknown(depsAt(sandbox.port), orderId);
      expect(await chargeOrder(depsAt(sandbox.port), orderId)).toBe('settled');

      const { state } = await loadOrder(store, orderId);
      expect(state.status).toBe('needs_review');
      expect(state.lastError).toMatch(new RegExp(`provider ran none of ${MAX_CONSECUTIVE_NOT_SENT} calls in a row`));
    });
  });

  describe('when a try reached the provider and only its retry was answered 429', () => {
    let server: Server;
    afterEach(() => new Promise((resolve) => server.close(resolve)));

    it('is an unknown outcome like any lost answer: the first try may have charged', async () => {
      // The first try is read and its connection reset; stripe-node sends it again under the same key
      // (even with retries off), and that retry is rate limited, which says nothing of the first.
      let tries = 0;
      server = createHttpServer((request, response) => {
        tries += 1;
        if (tries === 1) return request.socket.resetAndDestroy();
        response.writeHead(429, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { type: 'rate_limit_error', message: 'Too many requests' } }));
      });
      expect((await lostAnswerFrom(server)).error).toMatch(/StripeRateLimitError/);
      expect(tries).toBe(2);
    });
  });

  describe('when a try reached the provider and only the retry after its lost connection was refused', () => {
    let server: Server;

    it('is an unknown outcome like any lost answer, and counts towards the stop rule', async () => {
      // Reads the first request, stops listening, then resets that connection: stripe-node retries a
      // reset connection once under the same key (even with retries off), and that retry is refused.
      server = createServer((socket) =>
        socket.once('data', () => {
          server.close();
          socket.resetAndDestroy();
        }),
      );
      expect((await lostAnswerFrom(server)).error).toMatch(/ECONNREFUSED/);
    });
  });
});
