/**
 * A server that stops answering without closing its connections (SIGSTOP of the emulator's process: a
 * frozen container, a paused VM). The 6.2.1 client sends reads with no deadline, so before
 * esdb.read-deadline.ts a read waited for as long as the connection lived, and
 * `GET /v1/orders/{id}/events` with it (operators measured more than 40 s). Now a read that receives
 * nothing for its deadline fails as store-unavailable, and the route answers 503 STORE.UNAVAILABLE; so
 * does an append with no answer past its deadline and a grace (esdb.append.ts), where it waited for the
 * whole pause. Subscriptions on a paused server: esdb.paused-subscription.e2e.spec.ts.
 */
import { DeadlineExceededError } from '@eventstore/db-client';
import { testEvent } from '../../../test/contracts/test-events';
import { startEmulatorProcess } from '../../../test/esdb-emulator/process';
import { auth, startTestApp, type TestApp } from '../../../test/harness/test-app';
import { isStoreUnavailable } from '../store-unavailable';
import { STALL_GRACE_MS } from './esdb.append';
import { EsdbEventStore } from './esdb.event-store';

const READ_DEADLINE_MS = 1_000;
/** Well past the deadline, well short of what a read without one waits (the test's own timeout). */
const ANSWERED_WITHIN_MS = 4 * READ_DEADLINE_MS;

jest.setTimeout(30_000);

/** The read's rejection and how long it took to come; fails the test if the read succeeds. */
async function failureOf(read: () => Promise<unknown>): Promise<{ error: unknown; tookMs: number }> {
  const startedAt = Date.now();
  try {
    await read();
  } catch (error) {
    return { error, tookMs: Date.now() - startedAt };
  }
  throw new Error('expected the read to fail');
}

let emulator: Awaited<ReturnType<typeof startEmulatorProcess>>;
/** The deadline comes from the connection string, as an operator sets it (EVENTSTORE_CONNECTION_STRING). */
let connectionString: string;
beforeAll(async () => {
  emulator = await startEmulatorProcess();
  connectionString = `${emulator.connectionString}&defaultDeadline=${READ_DEADLINE_MS}`;
});
afterEach(() => {
  emulator.child.kill('SIGCONT');
});
afterAll(() => {
  emulator.child.kill('SIGCONT');
  emulator.child.kill('SIGTERM');
});

describe('EsdbEventStore reads from a server that stops answering (SIGSTOP)', () => {
  let store: EsdbEventStore;
  const stream = `order-deadline-${process.pid}`;

  beforeAll(async () => {
    store = EsdbEventStore.connect(connectionString);
    await store.append(stream, [testEvent('SomethingHappened', { n: 1 })], 'no_stream');
    // The connection is up and has answered a read before the pause.
    expect((await store.readStream(stream)).map((e) => e.data)).toEqual([{ n: 1 }]);
  });
  afterAll(async () => {
    emulator.child.kill('SIGCONT');
    await store.close();
  });

  it('fails a stream read past its deadline as store-unavailable, and reads again once the server resumes', async () => {
    emulator.child.kill('SIGSTOP');
    const { error, tookMs } = await failureOf(() => store.readStream(stream));
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect(isStoreUnavailable(error)).toBe(true);
    expect(tookMs).toBeGreaterThanOrEqual(READ_DEADLINE_MS - 50);
    expect(tookMs).toBeLessThan(ANSWERED_WITHIN_MS);

    emulator.child.kill('SIGCONT');
    expect((await store.readStream(stream)).map((e) => e.data)).toEqual([{ n: 1 }]);
  });

  it('fails an append as store-unavailable once it has waited its deadline and the grace, and the same append after the resume writes it once', async () => {
    const events = [testEvent('SomethingHappened', { n: 2 })];
    emulator.child.kill('SIGSTOP');
    const { error, tookMs } = await failureOf(() => store.append(stream, events, 0));
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect(isStoreUnavailable(error)).toBe(true);
    expect(tookMs).toBeGreaterThanOrEqual(READ_DEADLINE_MS + STALL_GRACE_MS - 50);
    // Without the grace's deadline it waits for the whole pause (past the test's timeout).
    expect(tookMs).toBeLessThan(READ_DEADLINE_MS + STALL_GRACE_MS + 5_000);

    emulator.child.kill('SIGCONT');
    // Written by the stalled call once the server woke, or by this one: either way once, at revision 1.
    expect((await store.append(stream, events, 0)).nextRevision).toBe(1);
    expect((await store.readStream(stream)).map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('fails a read of $all past its deadline as store-unavailable', async () => {
    emulator.child.kill('SIGSTOP');
    const { error, tookMs } = await failureOf(() => store.readAll({ direction: 'backwards', maxCount: 10 }));
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect(isStoreUnavailable(error)).toBe(true);
    expect(tookMs).toBeLessThan(ANSWERED_WITHIN_MS);

    emulator.child.kill('SIGCONT');
    expect((await store.readAll({ direction: 'backwards', maxCount: 10 })).map((e) => e.stream)).toContain(stream);
  });
});

describe('GET /v1/orders/{orderId}/events on a paused EventStoreDB', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await startTestApp('esdb_paused_server', { EVENT_STORE: 'esdb', EVENTSTORE_CONNECTION_STRING: connectionString });
  });
  afterAll(async () => {
    emulator.child.kill('SIGCONT');
    await harness.close();
  });

  it('answers 503 STORE.UNAVAILABLE with Retry-After within the read deadline, and the events once the server resumes', async () => {
    const orderId = `paused-${process.pid}`;
    await harness.runtime.eventStore.append(`order-${orderId}`, [testEvent('ChargeRequested', { amount: 100 })], 'no_stream');
    const get = () => harness.app.inject({ method: 'GET', url: `/v1/orders/${orderId}/events`, headers: auth('support') });
    expect((await get()).statusCode).toBe(200);

    emulator.child.kill('SIGSTOP');
    const startedAt = Date.now();
    const paused = await get();
    expect(Date.now() - startedAt).toBeLessThan(ANSWERED_WITHIN_MS);
    expect(paused.statusCode).toBe(503);
    expect(paused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(paused.headers['retry-after']).toBeDefined();
    expect(paused.json()).toMatchObject({ status: 503, code: 'STORE.UNAVAILABLE' });

    emulator.child.kill('SIGCONT');
    const resumed = await get();
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json<{ events: Array<{ type: string }> }>().events.map((e) => e.type)).toEqual(['ChargeRequested']);
  });
});
