/**
 * A real job-worker process for the dead-worker proofs: Idem's job worker (slot liveness and the dead
 * worker sweep included) with one test task, `hold`, against DATABASE_URL. Reports on stdout, one JSON
 * object per line: `ready` once it runs, `log` for each of the job worker's log lines (debug included).
 *
 * - HOLD=1: the task reports `started` and holds its job until "finish" arrives on stdin, then reports
 *   `finished` (a long charge or pull run, still alive).
 * - otherwise: the task reports `ran` and completes at once.
 * - SWEEP_MS: the dead worker sweep's interval.
 */
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { Logger } from 'graphile-worker';
import { Pool } from 'pg';
import { startJobWorker } from '../../src/jobs/job-worker';

const report = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);
const stdin = createInterface({ input: process.stdin });

async function main() {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
  await startJobWorker({
    pool,
    concurrency: 2,
    pollIntervalMs: 100,
    deadWorkerSweepMs: Number(process.env.SWEEP_MS ?? 60_000),
    logger: new Logger(() => (level, message) => report({ event: 'log', level, message })),
    taskList: {
      hold: async (_payload, { job }) => {
        if (!process.env.HOLD) {
          report({ event: 'ran', jobId: job.id, attempts: job.attempts });
          return;
        }
        report({ event: 'started', jobId: job.id, attempts: job.attempts });
        await once(stdin, 'line');
        report({ event: 'finished', jobId: job.id });
      },
    },
  });
  report({ event: 'ready' });
}

main().catch((error: unknown) => report({ event: 'crashed', error: error instanceof Error ? error.stack : String(error) }));
