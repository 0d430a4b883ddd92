/**
 * A real process driving one pull run, for the kill-and-resume and one-driver proofs: drives RUN_ID
 * against the sandbox CRM at CRM_URL, on the event store at ESDB_URL (EventStoreDB) or else on
 * DATABASE_URL, holding the run's lock on DATABASE_URL (silence limit SILENT_FOR_MS), and reports on
 * stdout, one JSON object per line.
 * - PAUSE_AT_PAGE=n: stops after importing the records of its n-th page and before recording them
 *   (the window between a page's appends and its cursor), reports `paused` and waits to be killed.
 * - HOLD_AT_PAGE=n: with its n-th page fetched and nothing of it imported, reports `holding` and waits
 *   for a line on stdin (the fencing proof stops the process meanwhile, then sends it and wakes it).
 * A run another live process drives is reported `elsewhere`, with who drives it.
 */
import { createInterface } from 'node:readline';
import { Pool } from 'pg';
import { surviveLostConnections } from '../../../src/database/lost-connections';
import { EsdbEventStore } from '../../../src/event-store/esdb/esdb.event-store';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import { SandboxCrmContactSource } from '../contact-source/sandbox-crm.contact-source';
import { driveRun } from './drive-run';
import { RunDrivenElsewhere, runLocksOn } from './run-lock';

const report = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);

async function main() {
  const pool = surviveLostConnections(new Pool({ connectionString: process.env.DATABASE_URL, max: 8 }));
  const store = process.env.ESDB_URL ? EsdbEventStore.connect(process.env.ESDB_URL) : new PostgresEventStore(pool);
  const crm = new SandboxCrmContactSource('crm', process.env.CRM_URL!);
  const pauseAt = Number(process.env.PAUSE_AT_PAGE ?? 0);
  const holdAt = Number(process.env.HOLD_AT_PAGE ?? 0);
  const stdin = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  let pages = 0;
  let fetched = 0;
  report({ event: 'started' });
  try {
    const run = await driveRun(
      {
        store,
        sources: () => crm,
        locks: runLocksOn(pool, process.env.SILENT_FOR_MS ? { silentForMs: Number(process.env.SILENT_FOR_MS) } : {}),
        pageSize: Number(process.env.PAGE_SIZE ?? 500),
        backoffMs: 10,
        metadata: { correlationId: 'crash', causationId: 'crash', actor: { role: 'worker', tokenId: `pid-${process.pid}` } },
        onPage: (state) => report({ event: 'page', pages: state.pages }),
        beforeImportingPage: async () => {
          if (++fetched !== holdAt) return;
          report({ event: 'holding' });
          await stdin.next();
        },
        beforeRecordingPage: async () => {
          if (++pages !== pauseAt) return;
          report({ event: 'paused' });
          await new Promise(() => undefined);
        },
      },
      process.env.RUN_ID!,
    );
    report({ event: 'done', status: run.status, processed: run.processed });
  } catch (error) {
    if (!(error instanceof RunDrivenElsewhere)) throw error;
    report({ event: 'elsewhere', by: error.holder?.by ?? null });
  }
  if (process.env.ESDB_URL) await store.close();
  await pool.end();
  process.exit(0);
}

main().catch((error) => {
  report({ event: 'error', error: String(error) });
  process.exit(1);
});
