/**
 * The whole service in the test process: api on a real port, the worker's background (projections,
 * job queue, charge and recovery tasks) and a sandbox provider, on a fresh database.
 */
import { startBackground, type Background } from '../../src/bootstrap/background';
import { startTestApp, type TestApp } from './test-app';

export interface TestService extends TestApp {
  url: string;
  background: Background;
}

export async function startTestService(label: string, env: Record<string, string> = {}): Promise<TestService> {
  const harness = await startTestApp(label, env);
  const background = await startBackground(harness.runtime, harness.features, { workerId: `test-${label}` });
  await harness.app.listen({ port: 0, host: '127.0.0.1' });
  const url = (await harness.app.getUrl()).replace('[::1]', '127.0.0.1');
  return {
    ...harness,
    url,
    background,
    async close() {
      await background.stop();
      await harness.close();
    },
  };
}

/** Runs `tasks` with at most `limit` in flight. */
export async function withConcurrency<T>(limit: number, tasks: Array<() => Promise<T>>): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, tasks.length) }, async () => {
      while (next < tasks.length) {
        const index = next++;
        results[index] = await tasks[index]();
      }
    }),
  );
  return results;
}
