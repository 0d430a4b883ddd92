/**
 * A real process importing FILE for the kill-mid-file proof: with PAUSE_AT_SLICE=n it stops after
 * importing its n-th slice and before recording it, reports `paused` on stdout and waits to be killed.
 */
import { Pool } from 'pg';
import { surviveLostConnections } from '../../../src/database/lost-connections';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import { importFile } from './import-file';

async function main() {
  const pool = surviveLostConnections(new Pool({ connectionString: process.env.DATABASE_URL, max: 8 }));
  const store = new PostgresEventStore(pool);
  let slices = 0;
  await importFile({
    store,
    source: 'crm',
    path: process.env.FILE!,
    sliceSize: Number(process.env.SLICE_SIZE ?? 500),
    metadata: { correlationId: 'kill', causationId: 'kill', actor: { role: 'sync', tokenId: `pid-${process.pid}` } },
    beforeRecordingSlice: async () => {
      if (++slices !== Number(process.env.PAUSE_AT_SLICE)) return;
      process.stdout.write('paused\n');
      await new Promise(() => undefined);
    },
  });
  process.stdout.write('done\n');
  await pool.end();
}

main().catch((error) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
