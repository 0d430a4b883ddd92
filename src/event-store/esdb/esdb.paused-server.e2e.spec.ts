/**
 * A server that stops answering without closing its connections (SIGSTOP of the emulator's process: a
 * frozen container, a paused VM). The 6.2.1 client sends reads with no deadline, so before
 * esdb.read-deadline.ts a read waited for as long as the connection lived, and
 * `GET /v1/orders/{id}/events` with it (operators measured more than 40 s). Now a read that receives
 * nothing for its deadline fails as store-unavailable, and the route answers 503 STORE.UNAVAILABLE; so
 * does an append with no answer past its deadline and a grace (esdb.append.ts), where it waited for the
 * whole pause.
 * A live subscription notices the pause through the client's keep-alive (esdb.keepalive.ts), drops,
 * and resumes after the last event it delivered once the server is back.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DeadlineExceededError, UnavailableError } from '@eventstore/db-client';
import { testEvent, uniqueCategory } from '../../../test/contracts/test-events';
import { auth, startTestApp, type TestApp } from '../../../test/harness/test-app';
import { isStoreUnavailable } from '../store-unavailable';
import { compareCheckpoints } from '../checkpoint';
import type { RecordedEvent } from '../event-store.port';
import { STALL_GRACE_MS } from './esdb.append';
import { EsdbEventStore } from './esdb.event-store';
import type { SubscriptionDrop } from './esdb.subscription';

const ROOT = join(__dirname, '..', '..', '..');
const READ_DEADLINE_MS = 1_000;
/** Well past the deadline, well short of what a read without one waits (the test's own timeout). */
const ANSWERED_WITHIN_MS = 4 * READ_DEADLINE_MS;

jest.setTimeout(30_000);

/** The emulator as a process of its own (test/esdb-emulator/main.ts), so that it can be paused. */
async function startEmulatorProcess(): Promise<{ child: ChildProcess; connectionString: string }> {
  const main = join(ROOT, 'test', 'esdb-emulator', 'main.ts');
  const child = spawn(process.execPath, ['-r', join(ROOT, 'bench', 'lib', 'register.js'), main], {
    cwd: ROOT,
    env: { ...process.env, ESDB_EMULATOR_PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let connectionString: string | undefined;
  for await (const line of createInterface({ input: child.stdout! })) {
    connectionString = /listening: (esdb:\/\/\S+)/.exec(line)?.[1];
    if (connectionString) break;
  }
  child.stdout!.resume();
  if (!connectionString) throw new Error(`the emulator exited (${child.exitCode}) before it was listening`);
  return { child, connectionString };
}

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
    expect(tookMs).toBeLessThan(READ_DEADLINE_MS + STALL_GRACE_MS + 2_000);

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

describe('EsdbEventStore subscriptions on a server that stops answering (SIGSTOP)', () => {
  /** Short keep-alive so the test runs in seconds; the defaults (10 000 ms each) behave the same, 20 s later. */
  const KEEPALIVE_MS = 1_000;
  let store: EsdbEventStore;
  let firstDrop: Promise<SubscriptionDrop>;
  const drops: SubscriptionDrop[] = [];

  beforeAll(() => {
    let dropped: (drop: SubscriptionDrop) => void;
    firstDrop = new Promise((resolve) => (dropped = resolve));
    // The client warns about a keep-alive under 10 000 ms (dist/Client/index.js); that is the point here.
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    store = EsdbEventStore.connect(`${connectionString}&keepAliveInterval=${KEEPALIVE_MS}&keepAliveTimeout=${KEEPALIVE_MS}`, {
      onSubscriptionDrop: (drop) => {
        drops.push(drop);
        dropped(drop);
      },
    });
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/KeepAliveInterval of 1000 is less than recommended/));
    warn.mockRestore();
  });
  afterAll(async () => {
    emulator.child.kill('SIGCONT');
    await store.close();
  });

  it('drops a live subscription within keep-alive interval + timeout, and resumes after the last delivered event once the server is back', async () => {
    const category = uniqueCategory();
    const delivered: RecordedEvent[] = [];
    let waiter: { count: number; resolve: () => void } | undefined;
    const deliveredUpTo = (count: number) =>
      new Promise<void>((resolve) => {
        waiter = { count, resolve };
        if (delivered.length >= count) resolve();
      });
    const subscription = store.subscribeToAll({ filter: { streamCategories: [category] } });
    const consuming = (async () => {
      for await (const batch of subscription) {
        delivered.push(...batch.events);
        if (waiter && delivered.length >= waiter.count) waiter.resolve();
      }
    })();

    await store.append(`${category}-1`, [testEvent('SomethingHappened', { n: 1 })], 'no_stream');
    await deliveredUpTo(1);

    emulator.child.kill('SIGSTOP');
    const pausedAt = Date.now();
    const drop = await firstDrop;
    const noticedAfterMs = Date.now() - pausedAt;
    // Noticed while the server is still paused, by the keep-alive: the call ended UNAVAILABLE ("Connection dropped").
    expect(drop.error).toBeInstanceOf(UnavailableError);
    expect(noticedAfterMs).toBeLessThan(2 * KEEPALIVE_MS + 2_000);
    // It resumes after what it delivered (a server checkpoint may have carried it a little further).
    expect(compareCheckpoints(drop.resumeAfter!, delivered[0].position)).toBeGreaterThanOrEqual(0);

    emulator.child.kill('SIGCONT');
    await store.append(`${category}-1`, [testEvent('SomethingHappened', { n: 2 })], 0);
    await deliveredUpTo(2);
    // Nothing redelivered, nothing skipped; the consumer's iteration never ended.
    expect(delivered.map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(drops).toHaveLength(1);

    await subscription.close();
    await consuming;
  });
});
