/**
 * A real process driving one pull run, for the kill-and-resume proof: drives RUN_ID against the
 * sandbox CRM at CRM_URL on DATABASE_URL and reports on stdout, one JSON object per line. With
 * PAUSE_AT_PAGE=n it stops after importing the records of its n-th page and before recording them
 * (the window between a page's appends and its cursor), reports `paused` and waits to be killed.
 */
import { Pool } from 'pg';
import { surviveLostConnections } from '../../../src/database/lost-connections';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import { SandboxCrmContactSource } from '../contact-source/sandbox-crm.contact-source';
import { driveRun } from './drive-run';

const report = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);

async function main() {
  const pool = surviveLostConnections(new Pool({ connectionString: process.env.DATABASE_URL, max: 8 }));
  const store = new PostgresEventStore(pool);
  const crm = new SandboxCrmContactSource('crm', process.env.CRM_URL!);
  const pauseAt = Number(process.env.PAUSE_AT_PAGE ?? 0);
  let pages = 0;
  report({ event: 'started' });
  const run = await driveRun(
    {
      store,
      sources: () => crm,
      pageSize: Number(process.env.PAGE_SIZE ?? 500),
      backoffMs: 10,
      metadata: { correlationId: 'crash', causationId: 'crash', actor: { role: 'worker', tokenId: `pid-${process.pid}` } },
      onPage: (state) => report({ event: 'page', pages: state.pages }),
      beforeRecordingPage: async () => {
        if (++pages !== pauseAt) return;
        report({ event: 'paused' });
        await new Promise(() => undefined);
      },
    },
    process.env.RUN_ID!,
  );
  report({ event: 'done', status: run.status, processed: run.processed });
  await pool.end();
}

main().catch((error) => {
  report({ event: 'error', error: String(error) });
  process.exit(1);
});
