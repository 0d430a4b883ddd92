/**
 * Diagnostic for bench:append (not a benchmark): where the client's CPU goes per append. Runs the
 * idem and raw contenders in this process against a fresh embedded PostgreSQL for BENCH_DURATION_S
 * [10] each, with the V8 profiler on, and prints client CPU µs per append plus the hottest functions
 * by self time.
 *
 *   node -r ./bench/lib/register.js bench/append/profile-client.ts
 */
import { Session } from 'node:inspector/promises';
import { Pool } from 'pg';
import { startBenchServer } from '../lib/postgres';
import { numberFromEnv } from '../lib/env';
import { appendOneFor } from './append-one';
import { runWorkload } from './workload';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

async function main() {
  const durationMs = numberFromEnv('BENCH_DURATION_S', 10, 1) * 1000;
  const server = await startBenchServer();
  const session = new Session();
  session.connect();
  try {
    for (const name of ['idem', 'raw'] as const) {
      const url = await server.freshDatabase(`profile_${name}`);
      const pool = new Pool({ connectionString: url, max: 16 });
      const appendOne = await appendOneFor(name, pool, url);
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 100 });
      await session.post('Profiler.start');
      const result = await runWorkload(
        { contender: name, url, round: 1, writers: 16, eventsPerStream: 10, warmupMs: 2000, durationMs },
        appendOne,
      );
      const { profile } = await session.post('Profiler.stop');
      await pool.end();
      const self = new Map<string, number>();
      const byId = new Map<number, ProfileNode>(profile.nodes.map((n: ProfileNode) => [n.id, n]));
      (profile.samples ?? []).forEach((id: number, i: number) => {
        const frame = byId.get(id)!.callFrame;
        const key = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*node_modules\//, '').replace(/^.*\/work\/main\//, '')}:${frame.lineNumber}`;
        self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas?.[i] ?? 0));
      });
      const total = [...self.values()].reduce((a, b) => a + b, 0);
      const idle = [...self].filter(([k]) => k.startsWith('(idle)')).reduce((a, [, v]) => a + v, 0);
      console.log(
        `\n${name}: ${Math.round(result.appendsPerSecond)} appends/s, client CPU ${Math.round(result.clientCpuUsPerAppend)} µs/append, busy ${(100 * (1 - idle / total)).toFixed(0)} %`,
      );
      for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
        console.log(`  ${((100 * us) / (total - idle)).toFixed(1).padStart(5)} %  ${key}`);
      }
    }
  } finally {
    session.disconnect();
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
