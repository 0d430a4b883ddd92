/**
 * The api in front of a PostgreSQL that stops answering: its connections go through a proxy that can
 * black-hole (accept and never forward), as a paused server or a partition would. Requests answer 503
 * STORE.UNAVAILABLE within the statement deadline instead of hanging, write nothing, and the service
 * answers again once the proxy forwards. A loaded but healthy service never meets the deadline.
 */
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { auth, startTestApp, type TestApp } from '../../test/harness/test-app';
import { expectProblem } from '../../test/harness/expect-problem';
import { createTestDatabase } from '../../test/harness/test-database';
import { waitUntil } from '../../test/harness/wait-until';
import { startBlackHoleProxy, type BlackHoleProxy } from '../../test/harness/black-hole-proxy';

const DEADLINE_MS = 1_000;
/** Timers fire late on a busy machine; an answer later than this is a hang, not a late timer. */
const SLACK_MS = 1_500;
/** The readiness probes' own limit (src/health/probe.ts). */
const PROBE_LIMIT_MS = 2_000;

describe('the api when PostgreSQL stops answering', () => {
  let url: string;
  let proxy: BlackHoleProxy;
  let harness: TestApp;
  let direct: Client;

  const timed = async <T>(work: Promise<T>) => {
    const started = Date.now();
    const value = await work;
    return { value, ms: Date.now() - started };
  };
  const charge = (orderId: string) =>
    harness.app.inject({
      method: 'POST',
      url: `/v1/orders/${orderId}/charge`,
      headers: auth('storefront'),
      payload: { amount: 1250, currency: 'EUR', customerId: 'cus_42' },
    });
  const orderEvents = (orderId: string) =>
    harness.app.inject({ method: 'GET', url: `/v1/orders/${orderId}/events`, headers: auth('support') });
  const readiness = () => harness.app.inject({ method: 'GET', url: '/health/ready' });
  /** Counted on a connection of the test's own, past the proxy. */
  const eventsOf = async (orderId: string) =>
    Number(
      (await direct.query<{ n: string }>('SELECT count(*) AS n FROM idem_events WHERE stream_name = $1', [`order-${orderId}`])).rows[0].n,
    );

  beforeAll(async () => {
    url = await createTestDatabase('stalled_postgres');
    proxy = await startBlackHoleProxy(url);
    harness = await startTestApp('stalled_postgres', {
      DATABASE_URL: proxy.url,
      IDEM_DB_POOL_SIZE: '10',
      IDEM_DB_QUERY_DEADLINE: `${DEADLINE_MS}ms`,
      IDEM_DB_CONNECT_TIMEOUT: `${DEADLINE_MS}ms`,
    });
    direct = new Client({ connectionString: url });
    await direct.connect();
  });
  afterAll(async () => {
    proxy.forward();
    await direct?.end();
    await harness?.close();
    await proxy?.close();
  });

  it('serves 200 concurrent requests on a pool of 10 that is busy for longer than the deadline, without one deadline error', async () => {
    // Every connection of the pool is taken for 1.5 deadlines: each request waits at least that long for one.
    const held = await Promise.all(Array.from({ length: 10 }, () => harness.runtime.pool.connect()));
    expect(harness.runtime.pool.totalCount).toBe(10);
    const orderIds = Array.from({ length: 100 }, () => `ord-${randomUUID()}`);
    const answering = Promise.all([...orderIds.map((orderId) => charge(orderId)), ...orderIds.map((orderId) => orderEvents(orderId))]);
    setTimeout(() => held.forEach((client) => client.release()), DEADLINE_MS * 1.5);
    const answers = await answering;
    expect(answers.filter((answer) => answer.statusCode >= 500).map((answer) => answer.body)).toEqual([]);
    expect(answers.filter((answer) => answer.statusCode === 202)).toHaveLength(100);
  });

  describe('while the proxy black-holes', () => {
    const unanswered = `ord-${randomUUID()}`;
    beforeAll(() => proxy.blackHole());

    it('answers a command 503 STORE.UNAVAILABLE within the deadline, and writes nothing', async () => {
      const { value: answer, ms } = await timed(charge(unanswered));
      expectProblem(answer, 503, 'STORE.UNAVAILABLE');
      expect(answer.headers['retry-after']).toBeDefined();
      expect(ms).toBeLessThan(DEADLINE_MS + SLACK_MS);
      expect(await eventsOf(unanswered)).toBe(0);
    });

    it('answers a read 503 STORE.UNAVAILABLE within the deadline', async () => {
      const { value: answer, ms } = await timed(orderEvents(`ord-${randomUUID()}`));
      expectProblem(answer, 503, 'STORE.UNAVAILABLE');
      expect(ms).toBeLessThan(DEADLINE_MS + SLACK_MS);
    });

    it('is not ready, and says so within the probes’ own limit', async () => {
      const { value: answer, ms } = await timed(readiness());
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toMatchObject({ status: 'down', checks: { database: { status: 'down' } } });
      expect(ms).toBeLessThan(PROBE_LIMIT_MS + SLACK_MS);
    });
  });

  describe('once the proxy forwards again', () => {
    beforeAll(() => proxy.forward());

    it('is ready again, and serves reads and commands', async () => {
      await waitUntil(readiness, (answer) => answer.statusCode === 200, 10_000);
      const orderId = `ord-${randomUUID()}`;
      expect((await charge(orderId)).statusCode).toBe(202);
      expect((await orderEvents(orderId)).statusCode).toBe(200);
      expect(await eventsOf(orderId)).toBe(1);
    });

    it('takes the command that was refused, once', async () => {
      const orderId = `ord-${randomUUID()}`;
      proxy.blackHole();
      expectProblem(await charge(orderId), 503, 'STORE.UNAVAILABLE');
      proxy.forward();
      await waitUntil(readiness, (answer) => answer.statusCode === 200, 10_000);
      expect((await charge(orderId)).statusCode).toBe(202);
      expect((await charge(orderId)).headers['idempotent-replayed']).toBe('true');
      expect(await eventsOf(orderId)).toBe(1);
    });
  });

  describe('when PostgreSQL stops answering just as a command appends', () => {
    /** Runs `act` as the next append starts, after the command has read its stream. */
    const onNextAppend = (act: () => void) => {
      const store = harness.runtime.eventStore;
      const append = store.append.bind(store);
      return jest.spyOn(store, 'append').mockImplementationOnce((...args) => {
        act();
        return append(...args);
      });
    };
    afterEach(async () => {
      proxy.forward();
      await waitUntil(readiness, (answer) => answer.statusCode === 200, 10_000);
    });

    it('answers 503 and writes nothing when the append is lost on its way, and takes the retry', async () => {
      const orderId = `ord-${randomUUID()}`;
      const appending = onNextAppend(() => proxy.blackHole());
      expectProblem(await charge(orderId), 503, 'STORE.UNAVAILABLE');
      expect(appending).toHaveBeenCalledTimes(1);
      appending.mockRestore();
      proxy.forward();
      expect(await eventsOf(orderId)).toBe(0);
      await waitUntil(readiness, (answer) => answer.statusCode === 200, 10_000);
      expect((await charge(orderId)).statusCode).toBe(202);
      expect(await eventsOf(orderId)).toBe(1);
    });

    it('answers the retry of an append whose answer was lost as the original, written once', async () => {
      const orderId = `ord-${randomUUID()}`;
      const appending = onNextAppend(() => proxy.loseAnswers());
      const first = await charge(orderId);
      expect(appending).toHaveBeenCalledTimes(1);
      appending.mockRestore();
      proxy.forward();
      // 503 says "send it again", not "failed": the append reached PostgreSQL, only its answer was lost.
      expectProblem(first, 503, 'STORE.UNAVAILABLE');
      expect(await eventsOf(orderId)).toBe(1);
      const retry = await charge(orderId);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(await eventsOf(orderId)).toBe(1);
    });
  });
});
