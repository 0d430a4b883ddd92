/**
 * A live subscription on a server that stops answering without closing its connections (SIGSTOP of the
 * emulator's process: a frozen container, a paused VM). It notices the pause only through the client's
 * gRPC keep-alive (esdb.keepalive.ts): the connection is dropped, the call ends UNAVAILABLE, and the
 * adapter resubscribes after the last event it delivered; the new connection waits for the server and
 * carries on once it resumes. The consumer's iteration never ends, so the projection supervisor never
 * has to restart it. Measured by hand with the default keep-alive (10 000 ms each): the drop came 20.0 s
 * after the subscription opened.
 */
import { UnavailableError } from '@eventstore/db-client';
import { testEvent, uniqueCategory } from '../../../test/contracts/test-events';
import { startEmulatorProcess } from '../../../test/esdb-emulator/process';
import { compareCheckpoints } from '../checkpoint';
import type { RecordedEvent } from '../event-store.port';
import { EsdbEventStore } from './esdb.event-store';
import type { SubscriptionDrop } from './esdb.subscription';

jest.setTimeout(30_000);

let emulator: Awaited<ReturnType<typeof startEmulatorProcess>>;
beforeAll(async () => {
  emulator = await startEmulatorProcess();
});
afterAll(() => {
  emulator.child.kill('SIGCONT');
  emulator.child.kill('SIGTERM');
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
    store = EsdbEventStore.connect(`${emulator.connectionString}&keepAliveInterval=${KEEPALIVE_MS}&keepAliveTimeout=${KEEPALIVE_MS}`, {
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
    // Interval + timeout is 2 s here; the bound leaves room for a loaded machine and stays far below the defaults' 20 s.
    expect(noticedAfterMs).toBeLessThan(2 * KEEPALIVE_MS + 6_000);
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
