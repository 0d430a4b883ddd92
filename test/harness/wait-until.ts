/**
 * Polls `probe` until `done` holds or `timeoutMs` passes: how a test waits for an asynchronous
 * consumer (projections, jobs) to catch up, instead of sleeping a fixed time. The timeout fails the test.
 */
export async function waitUntil<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(value).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
