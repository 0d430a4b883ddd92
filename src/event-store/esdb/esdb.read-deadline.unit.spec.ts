import { DeadlineExceededError, type ResolvedEvent } from '@eventstore/db-client';
import { defaultDeadlineOf, readWithin } from './esdb.read-deadline';

/** A read whose events the test hands out, as the client's read stream yields them. */
class ScriptedRead implements AsyncIterable<ResolvedEvent> {
  cancelled = false;
  private readonly queue: Array<ResolvedEvent | 'end'> = [];
  private wake: (() => void) | undefined;

  send(n: number): void {
    this.queue.push({ event: { id: `e${n}` } } as unknown as ResolvedEvent);
    this.wake?.();
  }

  end(): void {
    this.queue.push('end');
    this.wake?.();
  }

  async cancel(): Promise<void> {
    this.cancelled = true;
    this.end();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<ResolvedEvent> {
    for (;;) {
      while (this.queue.length === 0) await new Promise<void>((resolve) => (this.wake = resolve));
      const next = this.queue.shift()!;
      if (next === 'end') return;
      yield next;
    }
  }
}

describe('readWithin', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('lets a read that keeps receiving run past its deadline, and returns every event', async () => {
    const read = new ScriptedRead();
    const settled = readWithin(read, 1_000).then((events) => events.map((e) => e.event?.id));
    for (let n = 1; n <= 5; n++) {
      await jest.advanceTimersByTimeAsync(900);
      read.send(n);
    }
    read.end();
    // 4.5 s in all, never 1 s without an event.
    await expect(settled).resolves.toEqual(['e1', 'e2', 'e3', 'e4', 'e5']);
    expect(read.cancelled).toBe(false);
  });

  it('fails a read that stops receiving for its deadline, after earlier progress, and cancels it', async () => {
    const read = new ScriptedRead();
    const settled = readWithin(read, 1_000);
    const outcome = settled.then(
      () => 'resolved',
      (error: unknown) => error,
    );
    await jest.advanceTimersByTimeAsync(900);
    read.send(1);
    await jest.advanceTimersByTimeAsync(999);
    expect(read.cancelled).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect((error as Error).message).toMatch(/sent nothing on a read for 1000 ms/);
    expect(read.cancelled).toBe(true);
  });

  it('fails a read that never receives anything at its deadline', async () => {
    const read = new ScriptedRead();
    const outcome = readWithin(read, 1_000).catch((error: unknown) => error);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(await outcome).toBeInstanceOf(DeadlineExceededError);
    expect(read.cancelled).toBe(true);
  });
});

describe('defaultDeadlineOf', () => {
  it("reads the client's defaultDeadline setting from a connection string, as the client spells its keys", () => {
    expect(defaultDeadlineOf('esdb://127.0.0.1:2113?tls=false&defaultDeadline=2500')).toBe(2500);
    expect(defaultDeadlineOf('esdb://a:2113,b:2113?DEFAULT_DEADLINE=700&tls=false')).toBe(700);
    expect(defaultDeadlineOf('esdb://127.0.0.1:2113?tls=false')).toBeUndefined();
    expect(defaultDeadlineOf('esdb://127.0.0.1:2113')).toBeUndefined();
  });
});
