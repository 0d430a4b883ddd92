/**
 * A real process holding a projection lock, for the stopped-holder proof (projection-lock.int.spec.ts):
 * takes LOCK_KEY on DATABASE_URL with a silence limit of SILENT_FOR_MS and reports on stdout, one JSON
 * object per line: `held` once it holds the lock, `lost` (with the reason) when its session is gone.
 */
import { acquireLocks } from './projection-lock';

const report = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);

async function main() {
  const lock = await acquireLocks({ connectionString: process.env.DATABASE_URL }, [process.env.LOCK_KEY!], {
    wait: false,
    silentForMs: Number(process.env.SILENT_FOR_MS),
  });
  if (!lock) return report({ event: 'refused' });
  report({ event: 'held' });
  const error = await lock.lost;
  report({ event: 'lost', reason: error.message });
}

main().catch((error: unknown) => {
  report({ event: 'failed', reason: String(error) });
  process.exit(1);
});
